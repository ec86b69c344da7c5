import { connect } from 'node:net';

/**
 * A client that reads an SSE stream slowly over a real socket, as `curl --limit-rate 5k` does: it sends
 * the request, then takes at most `bytesPerSecond / 10` bytes from the socket every 100 ms and leaves the
 * rest in the kernel, so TCP backpressure reaches the server. It stops after `seconds` (or at the end of
 * the stream) and closes the socket.
 */
export interface SlowRead {
  readonly status: number;
  /** From sending the request to the first `event: result` line received. */
  readonly firstRowMs: number | null;
  readonly bytes: number;
  readonly seconds: number;
  readonly ended: boolean;
}

export interface SlowReadOptions {
  readonly url: string;
  readonly key: string;
  readonly path: string;
  readonly body: unknown;
  readonly bytesPerSecond: number;
  readonly seconds: number;
}

export function slowRead(o: SlowReadOptions): Promise<SlowRead> {
  const { hostname, port } = new URL(o.url);
  const payload = JSON.stringify(o.body);
  const request =
    `POST ${o.path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-API-Key: ${o.key}\r\nContent-Type: application/json\r\n` +
    `Accept: text/event-stream\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const started = performance.now();
    let bytes = 0;
    let head = '';
    let tail = '';
    let status = 0;
    let firstRowMs: number | null = null;
    let ended = false;
    let done = false;
    const perTick = Math.max(1, Math.round(o.bytesPerSecond / 10));
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(tick);
      clearTimeout(stop);
      socket.destroy();
      resolve({ status, firstRowMs, bytes, seconds: (performance.now() - started) / 1000, ended });
    };
    const take = () => {
      const chunk = socket.read(Math.min(perTick, socket.readableLength)) as Buffer | null;
      if (!chunk) return;
      bytes += chunk.length;
      const text = chunk.toString('latin1');
      if (status === 0) {
        head += text;
        const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
        if (m) status = Number(m[1]);
      }
      if (firstRowMs === null && (tail + text).includes('event: result')) firstRowMs = performance.now() - started;
      tail = text.slice(-16);
    };
    const tick = setInterval(take, 100);
    const stop = setTimeout(finish, o.seconds * 1000);
    socket.pause();
    socket.on('end', () => {
      ended = true;
      finish();
    });
    socket.on('error', (e) => (done ? undefined : status === 0 ? (finish(), reject(e)) : finish()));
    socket.write(request);
  });
}
