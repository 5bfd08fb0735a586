#!/usr/bin/env python3
"""A TCP proxy that adds a round-trip delay, as a mobile network does: every chunk is forwarded
half the delay after it arrived, in each direction, in order.

  delay-proxy.py LISTEN_PORT TARGET_HOST TARGET_PORT DELAY_MS   # prints "listening on PORT"
"""
import asyncio
import sys


async def pipe(reader, writer, delay):
    """Forwards what `reader` receives to `writer`, each chunk `delay` seconds after it arrived."""
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue()

    async def forward():
        while True:
            due, chunk = await queue.get()
            if chunk is None:
                break
            await asyncio.sleep(max(0.0, due - loop.time()))
            writer.write(chunk)
            await writer.drain()
        writer.close()

    forwarding = asyncio.create_task(forward())
    try:
        while chunk := await reader.read(65536):
            queue.put_nowait((loop.time() + delay, chunk))
    except ConnectionError:
        pass
    queue.put_nowait((0, None))
    try:
        await forwarding
    except ConnectionError:
        pass


async def main():
    listen, host, port, delay_ms = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    half = delay_ms / 2000

    async def serve(client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection(host, port)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(pipe(client_reader, server_writer, half), pipe(server_reader, client_writer, half))

    server = await asyncio.start_server(serve, "127.0.0.1", listen)
    print(f"listening on {server.sockets[0].getsockname()[1]}", flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
