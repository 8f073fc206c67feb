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
