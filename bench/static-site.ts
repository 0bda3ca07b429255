// The benchmarks' website: the PostgreSQL 15 manual (~1,170 static pages from Debian's
// postgresql-doc-15) served by nginx on 127.0.0.1, and wget's recursive crawl of it, the baseline.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';

const DOC_ROOT = '/usr/share/doc/postgresql-doc-15/html';
const PACKAGES = ['postgresql-doc-15', 'nginx-light', 'wget', 'time'];

export interface Measurement {
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  peakRssMb: number;
}

export function ensurePackages(packages: readonly string[] = PACKAGES): void {
  const missing = packages.filter((pkg) => spawnSync('dpkg', ['-s', pkg], { stdio: 'ignore' }).status !== 0);
  if (missing.length === 0) return;
  console.log(`installing ${missing.join(', ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', ...missing]]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (run as root, or install ${missing.join(' ')} first)`);
  }
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startNginx(work: string, root = DOC_ROOT): Promise<{ port: number; stop(): void }> {
  const port = await freePort();
  const prefix = join(work, `nginx-${port}`);
  for (const dir of ['', 'temp', 'logs']) mkdirSync(join(prefix, dir), { recursive: true });
  const temp = (name: string) => `${name}_temp_path ${join(prefix, 'temp', name)};`;
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes 1;
daemon off;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'logs', 'error.log')} warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}
  sendfile on;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    index index.html;
  }
}
`,
  );
  const child = spawn('nginx', ['-p', prefix, '-c', conf], { stdio: ['ignore', 'ignore', 'inherit'] });
  const deadline = Date.now() + 5000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('nginx did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { port, stop: () => child.kill('SIGTERM') };
}

export function runWget(url: string, work: string): Measurement {
  const dir = join(work, 'wget');
  mkdirSync(dir, { recursive: true });
  const log = join(dir, 'wget.log');
  const timing = join(dir, 'time.txt');
  const started = process.hrtime.bigint();
  // wget exits 8 when some links 404 (the manual has a few); that is not a failure here.
  spawnSync(
    '/usr/bin/time',
    ['-f', '%M', '-o', timing, 'wget', '-r', '-l', 'inf', '--no-parent', '-nd', '--delete-after', '-nv', '-o', log, url],
    { cwd: dir, stdio: 'ignore' },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peakRssMb = Number(readFileSync(timing, 'utf8').trim().split('\n').at(-1)) / 1024;
  // One "URL:... -> file" line per download; robots.txt is not a page.
  const pages = readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => / URL:\S+ \[.*\] -> /.test(line) && !line.includes('/robots.txt') && /\.html\b/.test(line)).length;
  return { pages, seconds, pagesPerSecond: pages / seconds, peakRssMb };
}

/** The median run by pages/s: shared machines are noisy, and one run can be off by a factor of two. */
export function median(runs: Measurement[]): Measurement {
  const sorted = [...runs].sort((a, b) => a.pagesPerSecond - b.pagesPerSecond);
  return sorted[Math.floor(sorted.length / 2)];
}
