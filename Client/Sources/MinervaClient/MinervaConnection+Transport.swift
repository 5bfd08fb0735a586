public import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
public import FoundationNetworking
#else
public import Foundation
#endif

#if canImport(OpenAPIAsyncHTTPClient)
public import AsyncHTTPClient
import OpenAPIAsyncHTTPClient
#endif

extension MinervaConnection {
    /// URLSession on Apple platforms, where it streams server-sent events; AsyncHTTPClient
    /// elsewhere (Linux), where URLSession would buffer every answer whole.
    public static var defaultTransport: any ClientTransport {
        #if canImport(Darwin)
        urlSession()
        #else
        asyncHTTPClient()
        #endif
    }

    /// A URLSession transport that streams answers where the platform can (Apple platforms).
    /// - Parameter session: the URLSession to send requests with.
    /// - Returns: the transport.
    public static func urlSession(_ session: URLSession = .shared) -> any ClientTransport {
        URLSessionTransport(configuration: .init(session: session))
    }

    #if canImport(OpenAPIAsyncHTTPClient)
    /// An AsyncHTTPClient transport (not on Apple platforms).
    /// - Parameters:
    ///   - client: the HTTP client to send requests with.
    ///   - timeout: how long a request may wait for its answer's head, which AsyncHTTPClient
    ///     also spends trying to connect to a server that is down; a long poll waits up to
    ///     25 s, so keep it above that.
    /// - Returns: the transport.
    public static func asyncHTTPClient(_ client: HTTPClient = .shared, timeout: Duration = .seconds(30)) -> any ClientTransport {
        AsyncHTTPClientTransport(configuration: .init(client: client, timeout: .init(timeout)))
    }
    #endif
}
