// Keeps the crawler off internal networks. The check runs inside the connection itself
// (DNS answer filtered before connecting, socket's peer checked after), so neither a
// redirect nor a DNS answer that changes between two lookups (rebinding) can get past it:
// whatever hostname or hop led there, the address we are about to talk to is what counts.
import dns from 'node:dns';
import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';
import { crawlMessages } from '../errors.ts';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a hostname to every address it has (like `dns.lookup` with `all: true`). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface GuardOptions {
  /** Lift the guard entirely (env CRAWL_ALLOW_PRIVATE=true: tests, self-hosting). */
  allowPrivate?: boolean;
  /** Defaults to the system resolver (`dns.lookup`, all addresses). */
  resolve?: Resolver;
  /**
   * For tests only: accept these exact addresses even though they are not public, so a
   * test server on 127.0.0.1 is reachable while every other internal address stays refused.
   */
  isAllowedAddress?: (address: string) => boolean;
}

export const systemResolver: Resolver = (hostname) =>
  dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface AddressClass {
  /** ipaddr.js range name of the address (of the embedded IPv4 address for mapped ones). */
  range: string;
  /** Only ordinary public unicast is allowed. */
  isPublic: boolean;
}

/** Classifies an IP address, or returns null when the string is not one. */
export function classifyAddress(address: string): AddressClass | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(stripBrackets(address));
  } catch {
    return null;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // ::ffff:a.b.c.d and the NAT64 prefix carry an IPv4 address the packets end up at.
    const range = v6.range();
    if (range === 'ipv4Mapped' || range === 'rfc6052') {
      const embedded = ipaddr.IPv4.parse(v6.toByteArray().slice(12).join('.'));
      return classifyParsed(embedded);
    }
  }
  return classifyParsed(parsed);
}

function classifyParsed(address: ipaddr.IPv4 | ipaddr.IPv6): AddressClass {
  const range = address.range();
  // An allowlist: anything ipaddr.js knows as special-purpose (6to4, Teredo, documentation,
  // benchmarking, ...) is refused along with the obvious internal ranges.
  return { range, isPublic: range === 'unicast' };
}

/**
 * The message never names the address: a host name's private answer would map the internal
 * network for whoever reads the job's error. `address` and `range` are for the log.
 */
export class AddressRefusedError extends Error {
  readonly code = 'ERR_ADDRESS_REFUSED';
  readonly address: string;
  readonly range: string;
  constructor(address: string, range: string) {
    super(crawlMessages.addressRefused);
    this.address = address;
    this.range = range;
    this.name = 'AddressRefusedError';
  }
}

/** Throws AddressRefusedError when the guard does not let us connect to `address`. */
export function assertAddressAllowed(address: string, options: GuardOptions): void {
  if (options.allowPrivate) return;
  const bare = stripBrackets(address);
  if (options.isAllowedAddress?.(bare)) return;
  const cls = classifyAddress(bare);
  if (!cls) throw new AddressRefusedError(bare, 'reserved');
  if (!cls.isPublic) throw new AddressRefusedError(bare, cls.range);
}

/**
 * Checks a URL's host before any connection when it is an IP literal (no DNS lookup
 * happens for those, and connecting to an unroutable one could hang until the timeout).
 */
export function assertHostAllowed(hostname: string, options: GuardOptions): void {
  const bare = stripBrackets(hostname);
  if (net.isIP(bare) !== 0) assertAddressAllowed(bare, options);
}

/**
 * Refuses a host that is, or resolves to, an address the guard refuses (any of its answers), in
 * at most `timeoutMs`. A lookup that fails or takes longer lets the host pass: the crawler checks
 * every connection again, and a DNS hiccup must not refuse a site that resolves a second later.
 */
export async function assertHostResolvesAllowed(hostname: string, options: GuardOptions, timeoutMs: number): Promise<void> {
  if (options.allowPrivate) return;
  const bare = stripBrackets(hostname);
  if (net.isIP(bare) !== 0) return assertAddressAllowed(bare, options);
  const answers = await Promise.race([(options.resolve ?? systemResolver)(bare), delay(timeoutMs, [], { ref: false })]).catch(() => []);
  for (const { address } of answers) assertAddressAllowed(address, options);
}

type LookupCallback = (err: Error | null, address?: string | ResolvedAddress[], family?: number) => void;

/** A `net.connect` lookup that resolves through `resolve` and drops refused addresses. */
export function createGuardedLookup(options: GuardOptions) {
  const resolve = options.resolve ?? systemResolver;
  return function guardedLookup(hostname: string, lookupOptions: dns.LookupOptions, callback: LookupCallback): void {
    resolve(hostname).then(
      (addresses) => {
        const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        let refused: Error | null = null;
        const allowed = addresses.filter((entry) => {
          if (wanted !== 0 && entry.family !== wanted) return false;
          try {
            assertAddressAllowed(entry.address, options);
            return true;
          } catch (err) {
            refused ??= err as Error;
            return false;
          }
        });
        if (allowed.length === 0) {
          const notFound = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
          callback(refused ?? notFound);
        } else if (lookupOptions.all) {
          callback(null, allowed);
        } else {
          callback(null, allowed[0].address, allowed[0].family);
        }
      },
      (err: Error) => callback(err),
    );
  };
}

export interface GuardedAgentOptions extends GuardOptions {
  /** Connections kept per origin (the per-host concurrency cap). */
  connections?: number;
  connectTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
}

/** An undici Agent whose every connection goes through the guard. */
export function createGuardedAgent(options: GuardedAgentOptions = {}): Agent {
  const guard: GuardOptions = {
    allowPrivate: options.allowPrivate,
    resolve: options.resolve,
    isAllowedAddress: options.isAllowedAddress,
  };
  const baseConnect = buildConnector({
    timeout: options.connectTimeoutMs ?? 10_000,
    ...(guard.allowPrivate && !guard.resolve ? {} : { lookup: createGuardedLookup(guard) }),
  } as buildConnector.BuildOptions);

  const connect: buildConnector.connector = (connectOptions, callback) => {
    try {
      assertHostAllowed(connectOptions.hostname, guard);
    } catch (err) {
      callback(err as Error, null);
      return;
    }
    baseConnect(connectOptions, (err, socket) => {
      if (err || !socket) {
        callback(err ?? new Error('connection failed'), null);
        return;
      }
      // The peer of the socket is the address actually connected to, whatever led here.
      try {
        assertAddressAllowed(socket.remoteAddress ?? '', guard);
      } catch (refused) {
        socket.destroy();
        callback(refused as Error, null);
        return;
      }
      callback(null, socket);
    });
  };

  return new Agent({
    connect,
    connections: options.connections ?? 8,
    pipelining: 1,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
  });
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
