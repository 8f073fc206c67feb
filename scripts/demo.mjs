// The demo accounts of supabase/seed.sql, printed by `npm start` and listed in the README.
export const DEMO_PASSWORD = 'senha123';
export const DEMO_ACCOUNTS = [
  ['super@plataforma.com.br', 'Super admin (todas as escolas)'],
  ['admin@escola-demo.com.br', 'Admin da Escola Demo'],
  ['instrutor@escola-demo.com.br', 'Instrutor da Escola Demo'],
  ['aluno@escola-demo.com.br', 'Aluno matriculado (com progresso)'],
  ['aluna@escola-demo.com.br', 'Aluna sem matrícula'],
  ['pausado@escola-demo.com.br', 'Aluno com matrícula pausada'],
  ['expirado@escola-demo.com.br', 'Aluno com matrícula expirada'],
  ['inativo@escola-demo.com.br', 'Conta inativa (login recusado)'],
  ['novo@escola-demo.com.br', 'Primeiro acesso (troca de senha obrigatória)'],
  ['admin@academia-rival.com.br', 'Admin da Academia Rival'],
  ['aluno@academia-rival.com.br', 'Aluno da Academia Rival'],
];

// Local-only webhook secrets (supabase/functions/.env and supabase/seed.sql), printed by `npm start`.
export const TENANT_WEBHOOK_SECRET = 'local-tenant-webhook-secret-troque-em-producao';
export const SCHOOL_WEBHOOK_SECRETS = [
  ['escola-demo', '5c000000-0000-4000-8000-000000000001', 'whsec_escola_demo_local_0123456789abcdef'],
  ['academia-rival', '5c000000-0000-4000-8000-000000000002', 'whsec_academia_rival_local_0123456789abcdef'],
];

