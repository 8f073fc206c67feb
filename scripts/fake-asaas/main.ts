// `npx tsx scripts/fake-asaas/main.ts`: the fake Asaas as its own process (npm start runs it).
// FAKE_ASAAS_PORT (default 54329, the port of ASAAS_SANDBOX_URL in supabase/functions/.env) and
// FAKE_ASAAS_API_URL, the local-supabase whose asaas-webhook receives the demo schools' events.
import { demoAsaasAccounts } from './demo-accounts.ts';
import { startFakeAsaas } from './server.ts';

const fake = await startFakeAsaas({
  port: Number(process.env.FAKE_ASAAS_PORT || 54329),
  accounts: demoAsaasAccounts(process.env.FAKE_ASAAS_API_URL || 'http://localhost:54321'),
  log: (line) => console.error(line),
});
console.log(`fake-asaas ready on ${fake.url}`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
