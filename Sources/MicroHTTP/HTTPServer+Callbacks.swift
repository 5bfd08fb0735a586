import CMicroHTTPD

// libmicrohttpd calls these on its worker threads. They are global functions (never closures
// from main.swift, which would be inferred @MainActor) and reach Swift through one context pointer.

/// `MHD_AccessHandlerCallback`: called first with the headers, then once per body chunk, then
/// with no data; the request is answered only on a later call so that keep-alive survives.
func accessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let conCls else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()

    guard let stored = conCls.pointee else {
        let head = RequestHead(
            connection: connection, method: method.map { String(cString: $0) } ?? "GET", url: url,
            version: version.map { String(cString: $0) } ?? "HTTP/1.1")
        // libmicrohttpd has checked the first Content-Length (digits, no overflow).
        let declaredLength = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length")
            .flatMap { Int(String(cString: $0)) } ?? 0
        let state = RequestState(head: head, bodyExceedsLimit: declaredLength > context.maxBodySize)
        context.inFlight.add(1, ordering: .relaxed)
        conCls.pointee = Unmanaged.passRetained(state).toOpaque()
        if head.malformation != nil || state.bodyExceedsLimit {
            // Refuse before reading the body; answering now also closes the connection.
            return answer(connection, state, context)
        }
        return .YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(stored).takeUnretainedValue()

    if let deferred = state.deferred {
        // Called again after a resume: the answer is there.
        guard let answer = deferred.suspendUnlessCompleted(connection) else { return .YES }
        return queue(answer, on: connection, state, context)
    }

    if let uploadDataSize, uploadDataSize.pointee > 0 {
        let size = uploadDataSize.pointee
        if !state.bodyExceedsLimit, let uploadData {
            if state.body.count + size > context.maxBodySize {
                state.bodyExceedsLimit = true
                state.body = []
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: size) { bytes in
                    state.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: size))
                }
            }
        }
        uploadDataSize.pointee = 0
        return .YES
    }
    return answer(connection, state, context)
}

/// `MHD_RequestCompletedCallback`: releases the request's state.
func requestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ reason: MHD_RequestTerminationCode
) {
    guard let cls, let conCls, let stored = conCls.pointee else { return }
    let state = Unmanaged<RequestState>.fromOpaque(stored).takeRetainedValue()
    conCls.pointee = nil
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    if let connection {
        clock(of: connection)?.requestCompleted()
    }
    if let key = state.waitingKey {
        _ = context.waiting.withLock { $0.removeValue(forKey: key) }
    }
    context.inFlight.subtract(1, ordering: .relaxed)
}

/// Builds the request, asks the responder, and queues its answer.
private func answer(_ connection: OpaquePointer, _ state: RequestState, _ context: ServerContext) -> MHD_Result {
    let clock = clock(of: connection)
    clock?.requestArrived()
    let request = HTTPRequest(head: state.head, body: state.body, bodyExceedsLimit: state.bodyExceedsLimit, clientAddress: clock?.group)
    state.body = []
    switch context.responder.reply(to: request) {
    case .response(let response):
        return queue(response, on: connection)
    case .deferred(let deferred):
        state.deferred = deferred
        let key = ObjectIdentifier(deferred)
        state.waitingKey = key
        context.waiting.withLock { $0[key] = .deferred(deferred) }
        guard let answer = deferred.suspendUnlessCompleted(connection) else {
            clock?.waits(on: .deferred(deferred))
            return .YES
        }
        return queue(answer, on: connection, state, context)
    case .stream(let status, let headers, let stream):
        return queue(.stream(status: status, headers: headers, stream), on: connection, state, context)
    }
}

/// Queues a deferred's answer, or a stream: a stream stays registered in
/// ``ServerContext/waiting`` (in place of the deferred it came through) so that shutdown ends it.
private func queue(_ answer: HTTPDeferred.Answer, on connection: OpaquePointer, _ state: RequestState, _ context: ServerContext) -> MHD_Result {
    switch answer {
    case .response(let response):
        return queue(response, on: connection)
    case .stream(let status, let headers, let stream):
        let key = ObjectIdentifier(stream)
        context.waiting.withLock { waiting in
            if let previous = state.waitingKey { waiting.removeValue(forKey: previous) }
            waiting[key] = .stream(stream)
        }
        state.waitingKey = key
        clock(of: connection)?.waits(on: .stream(stream))
        return queue(stream, status: status, headers: headers, on: connection)
    }
}

/// Queues a streamed body: libmicrohttpd pulls chunks through `readStream` and releases the
/// stream through `releaseStream` when the response is gone.
private func queue(
    _ stream: HTTPStream, status: Int, headers: [(name: String, value: String)], on connection: OpaquePointer
) -> MHD_Result {
    stream.attach(connection)
    let context = Unmanaged.passRetained(stream).toOpaque()
    guard let created = MHD_create_response_from_callback(UInt64.max, 4096, readStream, context, releaseStream) else {
        Unmanaged<HTTPStream>.fromOpaque(context).takeRetainedValue().cancel()
        return .NO
    }
    defer { MHD_destroy_response(created) }
    addHeaders(headers, to: created)
    return MHD_queue_response(connection, UInt32(status), created)
}

/// `MHD_ContentReaderCallback` of a streamed body.
private func readStream(_ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int) -> Int {
    guard let cls, let buffer else { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR
    return Unmanaged<HTTPStream>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: capacity)
}

/// `MHD_ContentReaderFreeCallback` of a streamed body: the client is gone or the body ended.
private func releaseStream(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    let stream = Unmanaged<HTTPStream>.fromOpaque(cls).takeRetainedValue()
    stream.cancel()
}

private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    var body = response.body
    let created = body.withUnsafeMutableBytes { buffer in
        MHD_create_response_from_buffer(buffer.count, buffer.baseAddress, .RESPMEM_MUST_COPY)
    }
    guard let created else { return .NO }
    defer { MHD_destroy_response(created) }
    addHeaders(response.headers, to: created)
    return MHD_queue_response(connection, UInt32(response.status), created)
}

/// Adds header fields to a response; `withCString` lends native strings' own bytes, where
/// passing a `String` as a C string would copy each one.
private func addHeaders(_ headers: [(name: String, value: String)], to response: OpaquePointer) {
    for header in headers {
        _ = header.name.withCString { name in header.value.withCString { MHD_add_response_header(response, name, $0) } }
    }
}

/// `MHD_AcceptPolicyCallback`: whether a new connection may stay, by the server's own limits
/// (libmicrohttpd's, split between its workers, are set above them).
func acceptPolicy(_ cls: UnsafeMutableRawPointer?, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> MHD_Result {
    guard let cls, let address else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    return context.connections.admits(ClientAddressGroup(address)) ? .YES : .NO
}

/// `MHD_NotifyConnectionCallback`: starts and ends a connection's ``ConnectionClock``,
/// kept behind its socket context.
func connectionNotified(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ code: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection, let socketContext else { return }
    let connections = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue().connections
    if code == .CONNECTION_NOTIFY_STARTED {
        // libmicrohttpd always knows the address of a connection it accepted; 0.0.0.0 otherwise
        let group = minerva_mhd_client_address(connection).map(ClientAddressGroup.init) ?? ClientAddressGroup(ipv4: 0)
        let clock = connections.opened(fd: minerva_mhd_connection_fd(connection), group: group)
        socketContext.pointee = Unmanaged.passRetained(clock).toOpaque()
    } else if code == .CONNECTION_NOTIFY_CLOSED, let stored = socketContext.pointee {
        socketContext.pointee = nil
        connections.closed(Unmanaged<ConnectionClock>.fromOpaque(stored).takeRetainedValue())
    }
}

/// The clock of a connection, while it is open.
private func clock(of connection: OpaquePointer) -> ConnectionClock? {
    minerva_mhd_socket_context(connection).map { Unmanaged<ConnectionClock>.fromOpaque($0).takeUnretainedValue() }
}
