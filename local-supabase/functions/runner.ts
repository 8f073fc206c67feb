// One long-lived Deno process per edge function, started on its first call through bootstrap.mjs,
// restarted after it exits (crash) or when its index.ts changes, killed on close().
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import type { ServerContext } from '../http.ts';
import { readSecrets } from './config.ts';
import { localSmtpSecrets } from '../mail/smtp-listener.ts';

const READY = '__LOCAL_SUPABASE_FUNCTION_READY__';
const BOOTSTRAP = path.join(import.meta.dirname, 'bootstrap.mjs');
/** First start may download npm packages into the Deno cache. */
const BOOT_TIMEOUT_MS = 120_000;
/** Variables of our own environment a function process may need (paths, locale, proxies, CAs). */
const PASS_THROUGH = [
  'PATH', 'HOME', 'TMPDIR', 'TEMP', 'TMP', 'LANG', 'TZ', 'SYSTEMROOT',
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy',
  'NPM_CONFIG_REGISTRY', 'npm_config_registry', 'DENO_CERT', 'DENO_TLS_CA_STORE', 'SSL_CERT_FILE', 'SSL_CERT_DIR',
  // Deno honours Node's extra CAs too (needed behind TLS-inspecting proxies to reach the npm registry).
  'NODE_EXTRA_CA_CERTS',
];

export class BootError extends Error {}

interface FunctionProcess {
  child: ChildProcess;
  ready: Promise<number>;
  exited: boolean;
  /** index.ts modification time when started: a newer file restarts the process. */
  mtimeMs: number;
}

/** The `deno` npm package's binary, or DENO_BIN, or `deno` on PATH. */
export function findDeno(): string {
  if (process.env.DENO_BIN) return process.env.DENO_BIN;
  try {
    const dir = path.dirname(createRequire(import.meta.url).resolve('deno/package.json'));
    const bin = path.join(dir, process.platform === 'win32' ? 'deno.exe' : 'deno');
    if (existsSync(bin)) return bin;
  } catch {
    // not installed as a package
  }
  return 'deno';
}

export function entryOf(functionsDir: string, name: string): string {
  return path.join(functionsDir, name, 'index.ts');
}

export class FunctionRunner {
  private readonly procs = new Map<string, FunctionProcess>();
  /** Starts in progress, so concurrent first calls share one process. */
  private readonly starting = new Map<string, Promise<FunctionProcess>>();
  private readonly deno = findDeno();
  private readonly cacheDir: string;
  private closed = false;

  constructor(private readonly ctx: ServerContext) {
    // Deno's module and npm cache: under the data dir, or shared in the temp dir for fresh servers.
    this.cacheDir = ctx.config.dataDir ? path.join(ctx.config.dataDir, 'deno') : path.join(os.tmpdir(), 'local-supabase-deno');
  }

  /** The loopback port of the function's Deno server, starting (or restarting) it when needed. */
  async portFor(name: string, supabaseUrl: string): Promise<number> {
    if (this.closed) throw new BootError('server is shutting down');
    const mtimeMs = (await stat(entryOf(this.ctx.config.functionsDir, name))).mtimeMs;
    let p = this.procs.get(name);
    if (p && !p.exited && p.mtimeMs !== mtimeMs) {
      this.ctx.log(`[functions] ${name}: index.ts changed, restarting`);
      await this.stop(p);
    }
    if (!p || p.exited || p.mtimeMs !== mtimeMs) {
      let starting = this.starting.get(name);
      if (!starting) {
        starting = this.start(name, supabaseUrl, mtimeMs).finally(() => this.starting.delete(name));
        this.starting.set(name, starting);
      }
      p = await starting;
      this.procs.set(name, p);
    }
    return p.ready;
  }

  private async start(name: string, supabaseUrl: string, mtimeMs: number): Promise<FunctionProcess> {
    const { config } = this.ctx;
    const dir = path.join(config.functionsDir, name);
    await mkdir(this.cacheDir, { recursive: true });
    const env: Record<string, string> = {};
    for (const key of PASS_THROUGH) if (process.env[key]) env[key] = process.env[key]!;
    const secrets = { ...(await readSecrets(path.join(config.functionsDir, '.env'))), ...config.functionSecrets };
    // SMTP goes to the local inbox unless the developer named a server: then all of SMTP_* is theirs.
    Object.assign(env, secrets.SMTP_HOST ? {} : localSmtpSecrets(config), secrets, {
      DENO_DIR: this.cacheDir,
      // Trust the operating system's CAs as well as Deno's bundled ones, unless told otherwise.
      DENO_TLS_CA_STORE: process.env.DENO_TLS_CA_STORE || 'mozilla,system',
      DENO_NO_UPDATE_CHECK: '1',
      DENO_NO_PROMPT: '1',
      // Our repo's package.json is not the function's: Supabase does not read it either.
      DENO_NO_PACKAGE_JSON: '1',
      NO_COLOR: '1',
      // Supabase's reserved variables win over secrets of the same name.
      SUPABASE_URL: supabaseUrl,
      SUPABASE_ANON_KEY: config.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: config.serviceRoleKey,
      ...(config.databaseUrl ? { SUPABASE_DB_URL: config.databaseUrl } : {}),
    });
    const denoJson = ['deno.json', 'deno.jsonc'].map((f) => path.join(dir, f)).find((f) => existsSync(f));
    const args = [
      'run',
      '--allow-net',
      '--allow-env',
      '--allow-read',
      // Never write node_modules or a lock file into the project; npm packages live in DENO_DIR.
      '--node-modules-dir=none',
      '--no-lock',
      ...(denoJson ? ['--config', denoJson] : ['--no-config']),
      BOOTSTRAP,
      pathToFileURL(entryOf(config.functionsDir, name)).href,
    ];
    const child = spawn(this.deno, args, { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const proc: FunctionProcess = { child, ready: Promise.resolve(0), exited: false, mtimeMs };
    const tail: string[] = [];
    const log = (line: string) => {
      tail.push(line);
      if (tail.length > 30) tail.shift();
      this.ctx.log(`[functions/${name}] ${line}`);
    };

    proc.ready = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new BootError(`${name} did not start within ${BOOT_TIMEOUT_MS / 1000}s`));
        child.kill('SIGKILL');
      }, BOOT_TIMEOUT_MS);
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.startsWith(READY)) {
          clearTimeout(timer);
          resolve(Number(line.slice(READY.length).trim()));
        } else {
          log(line);
        }
      });
      createInterface({ input: child.stderr! }).on('line', log);
      child.on('error', (e) => {
        proc.exited = true;
        clearTimeout(timer);
        reject(new BootError(`could not run ${this.deno}: ${e.message}`));
      });
      child.on('exit', (code, signal) => {
        proc.exited = true;
        clearTimeout(timer);
        // Only reported when it happens before the function listens (a boot failure).
        reject(new BootError(`${name} exited (${signal ?? code}) before serving:\n${tail.join('\n')}`));
        if (!this.closed) this.ctx.log(`[functions] ${name} exited (${signal ?? `code ${code}`})`);
      });
    });
    proc.ready.catch(() => {}); // awaited by callers; never an unhandled rejection
    // Writing to a dead process's stdin must not throw in the server.
    child.stdin!.on('error', () => {});
    return proc;
  }

  private async stop(p: FunctionProcess): Promise<void> {
    if (p.exited) return;
    const exited = new Promise<void>((resolve) => p.child.once('exit', () => resolve()));
    p.child.stdin?.end(); // bootstrap.mjs exits when its stdin closes
    p.child.kill('SIGTERM');
    const timer = setTimeout(() => p.child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.procs.values()].map((p) => this.stop(p)));
    this.procs.clear();
  }
}
