// `npm start`: the whole product on this machine — local-supabase (persistent, migrated, seeded on
// first run) and the SPA dev server — with the demo printed. Ctrl+C stops both.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureDeps, ROOT } from './ensure-deps.mjs';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, SCHOOL_WEBHOOK_SECRETS, TENANT_WEBHOOK_SECRET } from './demo.mjs';

ensureDeps();
// With the dependencies in place, tsx lets this plain script read the backend's own settings.
(await import('tsx/esm/api')).register();
const { configFromEnv } = await import('../local-supabase/config.ts');
const { FAKE_BUNNY_KEYS } = await import('./fake-bunny/keys.ts');
const { streamDemoLesson } = await import('./fake-bunny/demo-video.ts');

const config = configFromEnv();
const apiPort = config.port;
const webPort = 5173;
// The port of ASAAS_SANDBOX_URL in supabase/functions/.env.
const asaasPort = 54329;
// The fake Bunny Stream (API, TUS upload and CDN on one port); the functions get VIDEO_HOST=bunny and
// BUNNY_* pointing at it, so uploaded lesson videos are streamed as on a hosted deploy with Bunny.
const bunnyPort = 54349;
const bunnyUrl = `http://127.0.0.1:${bunnyPort}`;
const bunnySecrets = {
  VIDEO_HOST: 'bunny',
  BUNNY_API_URL: bunnyUrl,
  BUNNY_LIBRARY_ID: FAKE_BUNNY_KEYS.libraryId,
  BUNNY_API_KEY: FAKE_BUNNY_KEYS.apiKey,
  BUNNY_CDN_HOST: bunnyUrl,
  BUNNY_TOKEN_KEY: FAKE_BUNNY_KEYS.tokenKey,
  BUNNY_TUS_URL: `${bunnyUrl}/tusupload`,
  BUNNY_WEBHOOK_SECRET: FAKE_BUNNY_KEYS.readOnlyApiKey,
};
const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);
const children = [];

function run(name, cmd, args, env = {}) {
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => process.stderr.write(prefix(name, d)));
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`\n${name} parou (${signal ?? code}). Encerrando.`);
      stop(1);
    }
  });
  return child;
}
const prefix = (name, text) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => `[${name}] ${l}\n`)
    .join('');

function waitFor(child, pattern) {
  return new Promise((resolve) => {
    let seen = '';
    child.stdout.on('data', function onData(d) {
      seen += d;
      if (pattern.test(seen)) resolve();
      if (started) process.stdout.write(prefix(child === api ? 'api' : child === asaas ? 'asaas' : child === bunny ? 'bunny' : 'web', d));
    });
  });
}

let started = false;
let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const c of children) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.on('exit', r))))).then(() =>
    process.exit(code),
  );
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

console.log('› Iniciando o backend local (local-supabase)...');
const api = run(
  'api',
  bin('tsx'),
  ['local-supabase/main.ts'],
  // A developer's own FUNCTIONS_SECRET_* (say, a real Bunny library) wins.
  Object.fromEntries(Object.entries(bunnySecrets).map(([name, value]) => [`FUNCTIONS_SECRET_${name}`, process.env[`FUNCTIONS_SECRET_${name}`] ?? value])),
);
await waitFor(api, /ready/);
console.log('› Iniciando o Asaas simulado (pagamentos de teste)...');
const asaas = run('asaas', bin('tsx'), ['scripts/fake-asaas/main.ts'], { FAKE_ASAAS_PORT: String(asaasPort), FAKE_ASAAS_API_URL: `http://localhost:${apiPort}` });
await waitFor(asaas, /ready/);
console.log('› Iniciando o Bunny Stream simulado (vídeos das aulas)...');
const bunny = run('bunny', bin('tsx'), ['scripts/fake-bunny/main.ts'], {
  FAKE_BUNNY_PORT: String(bunnyPort),
  FAKE_BUNNY_DATA_DIR: path.join(config.dataDir, 'fake-bunny'),
  FAKE_BUNNY_WEBHOOK_URL: `http://localhost:${apiPort}/functions/v1/video-webhook`,
});
await waitFor(bunny, /ready/);
// The demo's uploaded lesson ("Fórmulas básicas") streams from it (scripts/fake-bunny/demo-video.ts),
// unless the developer pointed the functions at a real library.
if (!process.env.FUNCTIONS_SECRET_BUNNY_API_URL) {
  await streamDemoLesson({ apiUrl: `http://localhost:${apiPort}`, serviceRoleKey: config.serviceRoleKey, keys: FAKE_BUNNY_KEYS }).catch((e) =>
    console.error(`  Não foi possível ligar a aula de demonstração ao Bunny simulado: ${e.message}`),
  );
}
console.log('› Iniciando o app (Vite)...');
const web = run('web', bin('vite'), ['--port', String(webPort), '--strictPort'], {
  VITE_SUPABASE_URL: process.env.VITE_SUPABASE_URL || `http://localhost:${apiPort}`,
});
await waitFor(web, /Local:/);

const schools = await fetch(`http://localhost:${apiPort}/rest/v1/schools?select=slug,name&order=name`, {
  headers: { apikey: config.serviceRoleKey },
})
  .then((r) => (r.ok ? r.json() : []))
  .catch(() => []);

const app = `http://localhost:${webPort}`;
console.log(`
  Plataforma de cursos rodando

  App:      ${app}
  API:      http://localhost:${apiPort}  (local-supabase)
  E-mails:  http://localhost:${apiPort}/inbox  (caixa de entrada local: links de "Esqueci minha senha")
            e SMTP em 127.0.0.1:${config.smtp.port || '<porta livre>'} (usuário ${config.smtp.user}, senha ${config.smtp.pass}), por onde as edge functions enviam
${schools.map((s) => `  Login ${s.name}: ${app}/${s.slug}`).join('\n')}

  Contas de demonstração (senha: ${DEMO_PASSWORD})
${DEMO_ACCOUNTS.map(([email, what]) => `    ${email.padEnd(32)} ${what}`).join('\n')}

  Webhooks (POST JSON, cabeçalho x-webhook-secret; exemplos com curl no README)
    http://localhost:${apiPort}/functions/v1/tenant-webhook   segredo: ${TENANT_WEBHOOK_SECRET}
    http://localhost:${apiPort}/functions/v1/student-webhook  segredo da escola:
${SCHOOL_WEBHOOK_SECRETS.map(([slug, id, secret]) => `      ${slug.padEnd(16)} school_id ${id}  ${secret}`).join('\n')}

  Pagamentos: Asaas simulado em http://localhost:${asaasPort} (sandbox da Escola Demo). No checkout,
    a fatura tem o botão 'Simular pagamento', que confirma e libera o curso. A fatura de uma assinatura
    leva à página dela (http://localhost:${asaasPort}/s/<id>): 'Avançar para o próximo ciclo' (com o cartão
    aprovado ou recusado) e 'Simular vencimento'.
    Webhook do Asaas: http://localhost:${apiPort}/functions/v1/asaas-webhook?school=<id da escola>
    Notas fiscais: ligadas na Escola Demo (emitidas 7 dias após o pagamento, pelo Asaas simulado).
    Para simular a prefeitura: POST http://localhost:${asaasPort}/nfse/controle (docs/nota-fiscal.md).
    Afiliados: Marketing Digital tem o programa ligado (30%, coprodutora com 10%); afiliado aprovado
    aluno@escola-demo.com.br, link http://localhost:${webPort}/escola-demo/c/marketing-digital?afiliado=aluno001.
    O split vai ao Asaas simulado na cobrança; nova carteira: POST http://localhost:${asaasPort}/fake/wallets
    { "walletId": "<uuid>" } (docs/affiliates.md).

  Vídeos enviados às aulas: Bunny Stream simulado em ${bunnyUrl} (recebe o envio por TUS, converte com
    ffmpeg em HLS criptografado 240p/360p/720p e entrega com token). Arquivos em ${path.relative(ROOT, path.join(config.dataDir, 'fake-bunny'))}/.

  Dados persistem em .local-supabase/ (npm run db:reset recomeça do zero). Ctrl+C para parar.
`);
started = true;
