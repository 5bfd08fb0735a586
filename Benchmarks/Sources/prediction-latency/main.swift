// Tap to observed state with prediction against without (run-prediction.sh): the same scripted
// taps on one app, through a proxy that delays every round trip. Prints one line per run.
//   prediction-latency SERVER_URL LABEL [TAPS]
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 3, let server = URL(string: arguments[1]) else {
    print("usage: prediction-latency SERVER_URL LABEL [TAPS]")
    exit(2)
}
try await LatencyBenchmark.run(server: server, label: arguments[2], taps: arguments.count > 3 ? Int(arguments[3]) ?? 100 : 100)
