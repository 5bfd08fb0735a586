#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's entry point for a program that has a `main` of its own (a Swift executable
/// always has one), declared here because no Swift module exports it.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Hands the process to libFuzzer, which calls `testOneInput` with each input it makes and
/// reads its options (`-max_total_time=60`, corpus folders) from the command line.
/// - Parameter testOneInput: the fuzz target; it must not capture anything.
/// - Returns: never; the process exits with libFuzzer's status.
public func runFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}

/// Stops the fuzzer on a finding: libFuzzer saves the input that caused it.
/// - Parameter message: what property failed, for the report.
public func finding(_ message: String) -> Never {
    fatalError("finding: " + message)
}
