// Server-sent events read from a fetch() body, as the HTML standard's event-stream parser reads
// them. EventSource would do this, but it cannot send an Authorization header.

/**
 * Reads `body` (a ReadableStream of bytes) to its end and calls `onFrame({id, type, data})` for
 * every event in it (`id` is the last event id seen so far, `type` defaults to "message"), and
 * `onRetry(ms)` for a `retry:` field. Resolves when the stream ends; rejects when it fails.
 */
export async function readEventStream(body, { onFrame, onRetry }) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let lastId = "";
  let type = "";
  let data = [];
  const dispatch = () => {
    if (data.length) onFrame({ id: lastId, type: type || "message", data: data.join("\n") });
    type = "";
    data = [];
  };
  const field = (line) => {
    if (line === "") { dispatch(); return; }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") data.push(value);
    else if (name === "event") type = value;
    else if (name === "id" && !value.includes("\0")) lastId = value;
    else if (name === "retry" && /^\d+$/.test(value)) onRetry?.(Number(value));
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    // A line ends at CRLF, LF or CR; a CR at the very end may be the first half of a CRLF.
    const lines = buffer.split(/\r\n|\n|\r(?!$)/);
    buffer = lines.pop();
    for (const line of lines) field(line);
  }
}
