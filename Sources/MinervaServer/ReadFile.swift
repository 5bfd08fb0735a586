#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a regular file, or `nil` when it cannot be opened or read.
package func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count > 0 { bytes.append(contentsOf: chunk[0..<count]) }
        if count < chunk.count { break }
    }
    return ferror(file) == 0 ? bytes : nil
}
