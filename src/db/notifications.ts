/**
 * What other processes (and this one's other connections) changed, as PostgreSQL announces it
 * with NOTIFY when their transactions commit. Caches that answer reads from memory (credentials,
 * balances, job status) forget an entry when its row's notice arrives.
 *
 * On PostgreSQL one dedicated connection LISTENs for every channel of the process, and comes back
 * after a failure; what was missed meanwhile is unknown, so listeners are told of the gap
 * (`onGap`) and forget everything. On PGlite, the embedded database's own listeners.
 */
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';

export interface NotificationListener {
  onMessage(payload: string): void;
  /** Notices may have been lost (the connection dropped): whatever was remembered may be stale. */
  onGap?(): void;
}

export interface Notifications {
  /** Answers a function that stops this listener. */
  listen(channel: string, listener: NotificationListener): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

type Log = { warn(obj: object, msg: string): void };

export function pgliteNotifications(client: PGlite): Notifications {
  const stops: Array<() => Promise<void>> = [];
  return {
    async listen(channel, listener) {
      const stop = await client.listen(channel, (payload) => listener.onMessage(payload));
      stops.push(stop);
      return async () => {
        stops.splice(stops.indexOf(stop), 1);
        await stop();
      };
    },
    async close() {
      await Promise.allSettled(stops.map((stop) => stop()));
    },
  };
}

/** Adds a channel's listener; the function returned removes it. */
function addListener(listeners: Map<string, NotificationListener[]>, channel: string, listener: NotificationListener): () => Promise<void> {
  const known = listeners.get(channel);
  if (known) known.push(listener);
  else listeners.set(channel, [listener]);
  return async () => {
    const remaining = (listeners.get(channel) ?? []).filter((known) => known !== listener);
    listeners.set(channel, remaining);
  };
}

export function postgresNotifications(connectionString: string, log: Log = console): Notifications {
  const listeners = new Map<string, NotificationListener[]>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;

  const connect = async (): Promise<pg.Client> => {
    const next = new pg.Client({ connectionString });
    next.on('notification', ({ channel, payload }) => {
      for (const listener of listeners.get(channel) ?? []) listener.onMessage(payload ?? '');
    });
    next.on('error', (error) => {
      log.warn({ err: error }, 'the notification listener lost its connection');
      next.end().catch(() => {});
      client = null;
      connecting = null;
      if (!closed) setTimeout(() => void reconnect(), 1000).unref();
    });
    await next.connect();
    if (closed) {
      // Closed while this connection was being opened (a reconnect in flight): nobody would end it.
      await next.end();
      throw new Error('notifications closed');
    }
    for (const channel of listeners.keys()) await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = next;
    return next;
  };
  const reconnect = async () => {
    try {
      connecting ??= connect();
      await connecting;
      for (const channelListeners of listeners.values()) for (const listener of channelListeners) listener.onGap?.();
    } catch {
      connecting = null;
      if (!closed) setTimeout(() => void reconnect(), 1000).unref();
    }
  };

  return {
    async listen(channel, listener) {
      const known = listeners.has(channel);
      const stop = addListener(listeners, channel, listener);
      if (client) {
        if (!known) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      } else {
        // The first listener opens the connection, which LISTENs for every channel known by then.
        connecting ??= connect();
        await connecting;
      }
      return stop;
    },
    async close() {
      closed = true;
      await client?.end().catch(() => {});
    },
  };
}
