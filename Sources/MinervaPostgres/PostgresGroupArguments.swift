import MinervaSessions

/// A group of writes as the arguments of `minerva_commit_group` (see
/// ``PostgresSessionStorage/groupFunctionMigration`` and
/// ``PostgresSessionStorage/experimentsMigration``, whose function adds experiment rows): one
/// position per session write or deletion, in locking order, and the rows each adds in arrays
/// that name its position.
struct PostgresGroupArguments {
    /// How many arguments the function takes.
    static let count = 49

    /// Which of the group's writes is at each position (from 0).
    private(set) var writes: [Int] = []
    private var delete: [Bool] = [], id: [String?] = [], expected: [Int?] = [], token: [[UInt8]?] = [], version: [Int?] = []
    private var lastEvent: [Int?] = [], firstEvent: [Int?] = [], app: [String?] = [], state: [[UInt8]?] = [], lastUsed: [Double?] = []
    private var created: [Double?] = [], writesHead: [Bool] = [], oldestKept: [Int?] = [], retained: [Int?] = [], keptAnswers: [Int?] = []
    private var creationKey: [String?] = [], creationAt: [Double?] = [], creationBody: [[UInt8]?] = [], creationExpire: [Double?] = []
    private var eventWrite: [Int32] = [], eventSeq: [Int?] = [], eventBody: [[UInt8]?] = [], eventCheckpoint: [Bool] = [], eventVersion: [Int?] = []
    private var supersededWrite: [Int32] = [], supersededNode: [String?] = [], supersededAt: [Int?] = []
    private var restartedWrite: [Int32] = [], restartedNode: [String?] = []
    private var listWrite: [Int32] = [], listNode: [String?] = [], listVersion: [Int?] = [], listBody: [[UInt8]?] = []
    private var answerWrite: [Int32] = [], answerKey: [String?] = [], answerAt: [Double?] = [], answerBody: [[UInt8]?] = []
    private var touched: [(id: String, lastUsed: Double)] = []
    private var unitWrite: [Int32] = [], unitExperiment: [String?] = [], unitSeed: [String?] = [], unitID: [String?] = []
    private var unitVariant: [String?] = [], unitAssigned: [Int?] = []
    private var factWrite: [Int32] = [], factExperiment: [String?] = [], factName: [String?] = [], factAt: [Int?] = []

    /// The writes, taken in `order` (indices into `writes`).
    init(_ group: [StorageWrite], order: [Int]) {
        for index in order {
            switch group[index] {
            case .session(let change): add(change, index: index)
            case .delete(let session):
                writes.append(index)
                delete.append(true)
                id.append(session)
                expected.append(nil)
                token.append(nil)
                version.append(nil)
                lastEvent.append(nil)
                firstEvent.append(nil)
                app.append(nil)
                state.append(nil)
                lastUsed.append(nil)
                created.append(nil)
                writesHead.append(false)
                oldestKept.append(nil)
                retained.append(nil)
                keptAnswers.append(nil)
                creationKey.append(nil)
                creationAt.append(nil)
                creationBody.append(nil)
                creationExpire.append(nil)
            case .touch(let usage): touched += usage
            }
        }
        touched.sort { $0.id < $1.id }
    }

    private mutating func add(_ change: SessionWrite, index: Int) {
        writes.append(index)
        let position = Int32(writes.count)
        let record = change.record
        delete.append(false)
        id.append(record.id)
        expected.append(change.expectedLastEvent)
        token.append(record.tokenHash)
        version.append(record.version)
        lastEvent.append(record.lastEvent)
        firstEvent.append(record.firstEvent)
        app.append(record.appVersion)
        // A checked write that keeps the stored head sends no state.
        state.append(change.writesHead ? record.state : nil)
        lastUsed.append(record.lastUsed)
        created.append(record.createdAt)
        writesHead.append(change.writesHead)
        oldestKept.append(change.oldestKeptEvent)
        retained.append(min(change.retainedListVersions, Int(Int32.max)))
        keptAnswers.append(change.keptAnswers < Int.max ? change.keptAnswers : nil)
        creationKey.append(change.creation?.key)
        creationAt.append(change.creation?.storedAt)
        creationBody.append(change.creation?.body)
        creationExpire.append(change.creation == nil ? nil : change.creationKeysExpireBefore)
        for event in change.newEvents {
            eventWrite.append(position)
            eventSeq.append(event.seq)
            eventBody.append(event.body)
            eventCheckpoint.append(event.carriesCheckpoint)
            eventVersion.append(event.version)
        }
        for (node, at) in change.supersededLists {
            supersededWrite.append(position)
            supersededNode.append(node)
            supersededAt.append(at)
        }
        for node in change.restartedLists {
            restartedWrite.append(position)
            restartedNode.append(node)
        }
        for list in change.newListVersions {
            listWrite.append(position)
            listNode.append(list.node)
            listVersion.append(list.version)
            listBody.append(list.body)
        }
        for answer in change.newAnswers {
            answerWrite.append(position)
            answerKey.append(answer.key)
            answerAt.append(answer.storedAt)
            answerBody.append(answer.body)
        }
        for unit in change.experimentUnits {
            unitWrite.append(position)
            unitExperiment.append(unit.experiment)
            unitSeed.append(unit.seed)
            unitID.append(unit.unit)
            unitVariant.append(unit.variant)
            unitAssigned.append(unit.assigned)
        }
        for fact in change.experimentFacts {
            factWrite.append(position)
            factExperiment.append(fact.experiment)
            factName.append(fact.name.rawValue)
            factAt.append(fact.at)
        }
    }

    /// The arguments, in the function's order.
    var parameters: [PostgresValue] {
        [
            .bools(delete), .texts(id), .ints(expected), .byteArrays(token), .ints(version), .ints(lastEvent),
            .ints(firstEvent), .texts(app), .byteArrays(state), .doubles(lastUsed), .doubles(created), .bools(writesHead),
            .ints(oldestKept), .ints(retained), .ints(keptAnswers),
            .texts(creationKey), .doubles(creationAt), .byteArrays(creationBody), .doubles(creationExpire),
            .int32s(eventWrite), .ints(eventSeq), .byteArrays(eventBody), .bools(eventCheckpoint), .ints(eventVersion),
            .int32s(supersededWrite), .texts(supersededNode), .ints(supersededAt),
            .int32s(restartedWrite), .texts(restartedNode),
            .int32s(listWrite), .texts(listNode), .ints(listVersion), .byteArrays(listBody),
            .int32s(answerWrite), .texts(answerKey), .doubles(answerAt), .byteArrays(answerBody),
            .texts(touched.map(\.id)), .doubles(touched.map(\.lastUsed)),
            .int32s(unitWrite), .texts(unitExperiment), .texts(unitSeed), .texts(unitID), .texts(unitVariant), .ints(unitAssigned),
            .int32s(factWrite), .texts(factExperiment), .texts(factName), .ints(factAt),
        ]
    }
}
