@testable import MinervaCoordinator
import MinervaJSON
import MinervaModel
@testable import MinervaSessions
import Testing
import TestSupport

/// Events as the store keeps them read back as they were.
@Suite struct EventRecordTests {
    @Test func aStackChangedEventReadsBackFromItsRecord() throws {
        let event = SessionEvent(
            seq: 7, version: 5, at: 1_700_000_000_000, isFinal: true,
            change: .navigation(.stackChanged(navigator: "v0", stack: [NodeID(3), NodeID(5), NodeID(2)])))
        let read = try SessionEvent(record: event.record)
        #expect(read.type == "stackChanged" && read.seq == 7 && read.version == 5 && read.isFinal)
        guard case .navigation(.stackChanged(let navigator, let stack)) = read.change else {
            Issue.record("read back as \(read.type)")
            return
        }
        #expect(navigator == "v0" && stack == [NodeID(3), NodeID(5), NodeID(2)])
    }

    /// An event of each kind: the switch is exhaustive, so a kind added without a sample here
    /// does not compile.
    static func sample(of kind: SessionEvent.Kind) -> SessionEvent.Change {
        switch kind {
        case .appChanged: .appChanged(from: "old", to: "new")
        case .removed: .navigation(.removed(RemovedNode(node: NodeID(4), screen: "photo", reason: .dismiss, navigator: "v1")))
        case .finished:
            .navigation(
                .finished(
                    FinishedFlow(node: NodeID(4), screen: "login", parent: NodeID(1), result: ["status": "cancelled", "cause": "dismiss", "interactive": true],
                        held: false)))
        case .added:
            .navigation(
                .added(
                    AddedNode(
                        node: NodeID(4), screen: "photo", params: ["photoId": "p1"], parent: NodeID(1), navigator: "v1",
                        presentation: Presentation(.present, style: .popover), presentedBy: "v0", embedded: false, title: "Photo",
                        settings: PresentationSettings(
                            sheet: .init(detents: [.medium, .init(id: "peek", height: 120.5)], selected: "peek", grabber: true),
                            anchor: ["element": "toolbar", "rect": [1, 2, 3.5, 4]], dismissible: false))))
        case .stackChanged: .navigation(.stackChanged(navigator: "v0", stack: [NodeID(1), NodeID(5)]))
        case .tabSelected: .navigation(.tabSelected("account"))
        case .flagsChanged: .navigation(.flagsChanged(["beta", "signedIn"]))
        case .pendingChanged:
            .navigation(
                .pendingChanged(
                    .guarded(PendingNavigation(operation: .navigate, steps: [.init(screen: "settings")], guardNode: NodeID(3), flag: "signedIn"))))
        case .flowChanged:
            .navigation(
                .flowChanged(
                    FlowChange(
                        from: "auth", to: "main", bases: [BaseNavigator(id: "tab:today", rootKind: .tab), BaseNavigator(id: "tab:me", rootKind: .tab)])))
        case .paramsChanged: .navigation(.paramsChanged(node: NodeID(5), params: ["id": "A1", "color": "red"]))
        case .uiChanged: .navigation(.uiChanged(node: NodeID(5), ui: ["scrollAnchor": "msg-42", "selection": ["msg-42"]]))
        case .resultConsumed: .navigation(.resultConsumed(node: NodeID(1), screen: "login"))
        case .presentationChanged: .navigation(.presentationChanged(node: NodeID(4), selected: "large", dismissible: false))
        case .sizeClassChanged: .navigation(.sizeClassChanged(.compact))
        case .displayModeChanged: .navigation(.displayModeChanged(.twoOverSecondary))
        case .heldLinksChanged: .navigation(.heldLinksChanged(["/pay/7?amount=5", "/accounts/2"]))
        case .overlayChanged: .navigation(.overlayChanged("lock"))
        case .listChanged: .listChanged(node: NodeID(2), list: 3, from: 2)
        case .exposed: .exposed(experiment: "short-onboarding", variant: "short")
        case .unchanged: .unchanged
        }
    }

    @Test func aDisplayModeEventAndAHeadThatSaysAModeAreFormat8() throws {
        let event = SessionEvent(seq: 3, version: 2, at: 1_700_000_000_000, isFinal: true, change: .navigation(.displayModeChanged(.secondaryOnly)))
        #expect(try SessionEvent(record: event.record) == event)
        #expect(try JSONParser.parse(event.record.body).objectValue?["format"]?.intValue == 8)
        let mail = AppDescription.testApp(named: "mail.json")
        var tree = CoordinatorTree(app: mail)
        #expect(try JSONParser.parse(tree.headRecordBytes()).objectValue?["format"]?.intValue == 5)
        _ = try tree.setDisplayMode(SplitDisplayMode.twoOverSecondary)
        let head = tree.headRecordBytes()
        #expect(try JSONParser.parse(head).objectValue?["format"]?.intValue == 8)
        #expect(try CoordinatorTree(headRecord: head, app: mail) == tree)
    }

    @Test func anEventCarryingACheckpointOfATreeWithHeldLinksIsFormat9() throws {
        var tree = CoordinatorTree(app: .testApp(named: "bank.json"), flags: ["onboarded", "verified", "signedIn"])
        _ = try tree.present(screen: "transfer", params: ["to": "savings"], from: nil, style: nil, embedInNavigation: nil)
        _ = try tree.push(screen: "confirmTransfer", params: [:], from: nil)
        let plain = SessionEvent(seq: 3, version: 2, at: 0, isFinal: true, change: .navigation(.tabSelected("accounts")))
        let before = plain.carrying(Checkpoint.bytes(of: SessionState(tree: tree, appVersion: "v1")))
        #expect(try JSONParser.parse(before.record.body).objectValue?["format"]?.intValue ?? 9 < 8)
        _ = try tree.followLink("/accounts/1")
        let holding = plain.carrying(Checkpoint.bytes(of: SessionState(tree: tree, appVersion: "v1")))
        #expect(try JSONParser.parse(holding.record.body).objectValue?["format"]?.intValue == 9)
        #expect(try SessionEvent(record: holding.record).checkpoint != nil)
    }

    @Test func anOverlayEventAndAHeadUnderAnOverlayAreFormat10() throws {
        for overlay in ["lock", nil] {
            let event = SessionEvent(seq: 3, version: 2, at: 0, isFinal: true, change: .navigation(.overlayChanged(overlay)))
            #expect(try SessionEvent(record: event.record) == event)
            #expect(try JSONParser.parse(event.record.body).objectValue?["format"]?.intValue == 10)
        }
        let bank = AppDescription.testApp(named: "bank.json")
        var tree = CoordinatorTree(app: bank, flags: ["onboarded", "verified", "signedIn"])
        _ = try tree.push(screen: "account", params: ["id": "1"], from: nil)
        #expect(try JSONParser.parse(tree.headRecordBytes()).objectValue?["format"]?.intValue == 5)
        _ = try tree.updateFlags(set: ["locked"], clear: [])
        let head = tree.headRecordBytes()
        #expect(try JSONParser.parse(head).objectValue?["format"]?.intValue == 10)
        #expect(try CoordinatorTree(headRecord: head, app: bank) == tree)
        let checkpoint = Checkpoint.bytes(of: SessionState(tree: tree, appVersion: "v1"))
        #expect(RecordFormat.oldest(holdingCheckpoint: checkpoint) == 10)
    }

    @Test func aNumberedEventReadsBackFromItsRecordInFormat7() throws {
        let device = try DeviceChange(device: "phone-1", seq: 12)
        let event = SessionEvent(seq: 3, version: 2, at: 1_700_000_000_000, isFinal: true, change: .unchanged, device: device)
        let read = try SessionEvent(record: event.record)
        #expect(read == event && read.device == device)
        let format = try JSONParser.parse(event.record.body).objectValue?["format"]?.intValue
        #expect(format == 7)
    }

    @Test func aPendingDeepLinkReadsBackFromItsRecord() throws {
        let change = SessionEvent.Change.navigation(.pendingChanged(.link(PendingLink(url: "fit://workouts/7", flow: "main"))))
        let event = SessionEvent(seq: 3, version: 2, at: 1_700_000_000_000, isFinal: true, change: change)
        #expect(try SessionEvent(record: event.record) == event)
    }

    @Test(arguments: SessionEvent.Kind.allCases)
    func everyKindReadsBackFromItsRecord(kind: SessionEvent.Kind) throws {
        let event = SessionEvent(seq: 9, version: 4, at: 1_700_000_000_000, isFinal: false, change: Self.sample(of: kind))
        #expect(event.kind == kind && event.type == kind.rawValue)
        #expect(try SessionEvent(record: event.record) == event)
    }
}
