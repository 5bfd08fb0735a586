// Following a session: by mirror (the change log's events, applied to the last state) against
// re-reading the whole state after every change (the long poll of `states()`), over a scripted
// session of CHANGES changes on the tabs app. Prints the requests and answer bytes per change
// of each follower.
//   mirror-follower SERVER_URL [CHANGES]
import Foundation
import MinervaClient

let arguments = CommandLine.arguments
guard arguments.count >= 2, let server = URL(string: arguments[1]) else {
    print("usage: mirror-follower SERVER_URL [CHANGES]")
    exit(2)
}
let changes = arguments.count > 2 ? Int(arguments[2]) ?? 200 : 200
try await FollowerBenchmark.run(server: server, changes: changes)
