/**
 * A PostgreSQL connection's path, held where the drill wants it: a TCP proxy in front of a
 * server that reads the wire protocol enough to see, on each connection, the statement the
 * client sent (`Parse` or `Query`) and the server's `CommandComplete` for it. Armed with a
 * statement's beginning, it holds the server's answer to the next such statement, and everything
 * after it on that connection, as a server frozen right after it committed would, until
 * released; `onHold` is told at that moment (to freeze the server itself, say). Nothing else is
 * changed: bytes pass as they came.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface PgProxy {
  url: string;
  /** Holds the answer to the next statement starting with `sql` (case-insensitive), on whichever connection runs it. */
  arm(sql: string, onHold: () => void): void;
  /** Whether an answer is held now. */
  readonly holding: boolean;
  /** Lets what was held through (to a connection still open), and holds nothing more. */
  release(): void;
  close(): Promise<void>;
}

/** The messages of a protocol stream with a type byte and a length (the server's, and the client's after its startup). */
function messages(onMessage: (type: string, body: Buffer, raw: Buffer) => void, typed: () => boolean) {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      const head = typed() ? 1 : 0;
      if (pending.length < head + 4) return;
      const length = pending.readUInt32BE(head);
      if (pending.length < head + length) return;
      const raw = pending.subarray(0, head + length);
      onMessage(head ? String.fromCharCode(raw[0]!) : '', raw.subarray(head + 4), raw);
      pending = pending.subarray(head + length);
    }
  };
}

export async function pgProxy(target: { host: string; port: number }, database: string): Promise<PgProxy> {
  let armed: { sql: string; onHold: () => void } | null = null;
  let held: { socket: Socket; bytes: Buffer[] } | null = null;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    /** The statements sent and not yet completed, oldest first. */
    const sent: string[] = [];
    let started = false;
    client.on(
      'data',
      messages(
        (type, body) => {
          if (!type) started = true;
          else if (type === 'P') sent.push(body.subarray(body.indexOf(0) + 1, body.indexOf(0, body.indexOf(0) + 1)).toString());
          else if (type === 'Q') sent.push(body.subarray(0, body.indexOf(0)).toString());
        },
        () => started,
      ),
    );
    client.on('data', (chunk: Buffer) => upstream.write(chunk));
    upstream.on(
      'data',
      messages(
        (type, body, raw) => {
          if (held?.socket === client) {
            held.bytes.push(raw);
            return;
          }
          if (type === 'E') sent.shift();
          if (type === 'C') {
            const statement = sent.shift() ?? '';
            if (armed && statement.toLowerCase().startsWith(armed.sql.toLowerCase()) && body.toString().startsWith('UPDATE')) {
              const { onHold } = armed;
              armed = null;
              held = { socket: client, bytes: [raw] };
              onHold();
              return;
            }
          }
          client.write(raw);
        },
        () => true,
      ),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/${database}`,
    arm(sql, onHold) {
      armed = { sql, onHold };
    },
    get holding() {
      return held !== null;
    },
    release() {
      const h = held;
      held = null;
      armed = null;
      if (h && !h.socket.destroyed) for (const b of h.bytes) h.socket.write(b);
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
