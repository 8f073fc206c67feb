import { Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { SUPABASE_URL } from '@/platform/api-config';
import { copyText } from '@/platform/clipboard';

interface Doc {
  title: string;
  description: string;
  path: string;
  secret: string;
  request: unknown;
  response: unknown;
  notes: string[];
  /** Accepts the signed header x-webhook-signature (HMAC of timestamp and body with the secret). */
  signed?: boolean;
}

const DOCS: Doc[] = [
  {
    title: 'Webhook de escolas (tenant-webhook)',
    description: 'Cria uma escola e o seu administrador a partir de um sistema externo (página de vendas, CRM).',
    path: 'tenant-webhook',
    secret: 'TENANT_WEBHOOK_SECRET (segredo da plataforma, nas variáveis das funções)',
    request: { email: 'dona@escola.com.br', name: 'Maria Souza', company_name: 'Escola da Maria', company_slug: 'escola-da-maria', phone: '11988887777', address: 'Rua A, 1' },
    response: { user_id: 'uuid', school_id: 'uuid', email: 'dona@escola.com.br', temporary_password: '••••••' },
    notes: [
      'company_slug: letras minúsculas, números e hífens.',
      '201 ao criar; 200 com os mesmos ids se a escola e o e-mail já existem; 409 se o slug é de outra pessoa.',
      '400 { error, field } para um campo inválido; 401 sem o segredo certo; 405 para outro método; corpo até 64 KB.',
    ],
  },
  {
    title: 'Webhook de alunos (student-webhook)',
    description: 'Cria (ou encontra) um aluno e o matricula num curso da escola.',
    path: 'student-webhook',
    secret: 'o segredo da escola (Configurações da escola → Segredo do webhook de alunos)',
    request: { email: 'aluno@exemplo.com.br', name: 'João Lima', school_id: 'uuid da escola', course_id: 'uuid do curso', cpf: '52998224725', phone: '11988887777', cohort_id: 'turma-2026', expires_at: '2026-12-31T23:59:59Z' },
    response: { message: 'Aluno criado e matriculado', user_id: 'uuid', enrollment_id: 'uuid', email: 'aluno@exemplo.com.br', temporary_password: '52998224725', course_id: 'uuid', school_id: 'uuid' },
    notes: [
      'Obrigatórios: email, name, school_id, course_id. Opcionais: cohort_id, phone, address, cpf, expires_at (ISO 8601).',
      'Senha inicial: os números do CPF, ou a senha padrão; o aluno troca no primeiro acesso.',
      '201 ao criar ou matricular; 200 com os mesmos ids numa chamada repetida (a validade é atualizada e a matrícula reativada).',
      '400 { error, field }; 401 sem o segredo da escola, ou com assinatura inválida, vencida ou já usada; 409 se o e-mail é de outra escola.',
    ],
    signed: true,
  },
];

/** The signed call of student-webhook, in shell (openssl) and in Node, for `url`. */
function signedExamples(url: string, request: unknown) {
  const body = JSON.stringify(request);
  const shell = [
    `SEGREDO='<segredo da escola>'`,
    `BODY='${body}'`,
    'T=$(date +%s)',
    `SIG=$(printf '%s.%s' "$T" "$BODY" | openssl dgst -sha256 -hmac "$SEGREDO" | sed 's/^.* //')`,
    `curl -X POST '${url}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H "x-webhook-signature: t=$T,v1=$SIG" \\`,
    `  --data-binary "$BODY"`,
  ].join('\n');
  const node = [
    "import { createHmac } from 'node:crypto';",
    '',
    `const body = JSON.stringify(${body});`,
    'const t = Math.floor(Date.now() / 1000);',
    "const v1 = createHmac('sha256', process.env.SEGREDO_DA_ESCOLA).update(`${t}.${body}`).digest('hex');",
    `const res = await fetch('${url}', {`,
    "  method: 'POST',",
    "  headers: { 'Content-Type': 'application/json', 'x-webhook-signature': `t=${t},v1=${v1}` },",
    '  body, // exatamente os bytes assinados',
    '});',
    'console.log(res.status, await res.json());',
  ].join('\n');
  return { shell, node };
}

function Example({ title, code }: { title: string; code: string }) {
  return (
    <div className="grid gap-1">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-medium">{title}</h3>
        <Button variant="ghost" size="sm" onClick={() => copy(code)} aria-label={`Copiar: ${title}`}>
          <Copy aria-hidden="true" /> Copiar
        </Button>
      </div>
      <pre className="max-w-full overflow-x-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-100">{code}</pre>
    </div>
  );
}

function copy(text: string) {
  void copyText(text, 'Copiado!');
}

/** Documentation of the inbound webhooks with this deployment's real URLs (super admin). */
export function WebhookDocs() {
  return (
    <>
      {DOCS.map((d) => {
        const url = `${SUPABASE_URL}/functions/v1/${d.path}`;
        const curl = `curl -X POST '${url}' \\\n  -H 'Content-Type: application/json' \\\n  -H 'x-webhook-secret: <segredo>' \\\n  -d '${JSON.stringify(d.request)}'`;
        return (
          <section key={d.path} className="grid min-w-0 gap-3 rounded-xl border border-border bg-white p-4 sm:p-6" aria-label={d.title}>
            <div>
              <h2 className="text-lg font-semibold">{d.title}</h2>
              <p className="text-sm text-muted-foreground">{d.description}</p>
            </div>
            <dl className="grid gap-2 text-sm">
              <div className="grid gap-1">
                <dt className="font-medium">URL (POST, JSON)</dt>
                <dd className="flex min-w-0 items-center gap-2">
                  <code className="min-w-0 flex-1 rounded-md bg-muted px-2 py-1 font-mono text-xs break-all">{url}</code>
                  <Button variant="ghost" size="icon" aria-label={`Copiar URL do ${d.path}`} onClick={() => copy(url)}>
                    <Copy aria-hidden="true" />
                  </Button>
                </dd>
              </div>
              <div className="grid gap-1">
                <dt className="font-medium">Cabeçalhos</dt>
                <dd>
                  <code className="font-mono text-xs">Content-Type: application/json</code> e <code className="font-mono text-xs">x-webhook-secret</code>: {d.secret}
                  {d.signed && (
                    <>
                      {' '}
                      (ou, mais seguro, <code className="font-mono text-xs">x-webhook-signature</code>: veja abaixo)
                    </>
                  )}
                </dd>
              </div>
            </dl>
            <div className="grid gap-1">
              <div className="flex items-center justify-between">
                <h3 className="text-sm font-medium">Exemplo de requisição</h3>
                <Button variant="ghost" size="sm" onClick={() => copy(curl)}>
                  <Copy aria-hidden="true" /> Copiar curl
                </Button>
              </div>
              <pre className="max-w-full overflow-x-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-100">{curl}</pre>
            </div>
            {d.signed && (
              <div className="grid gap-3 rounded-lg border border-border p-3">
                <div className="grid gap-1 text-sm">
                  <h3 className="font-medium">Requisição assinada (recomendada)</h3>
                  <p className="text-muted-foreground">
                    Em vez de enviar o segredo, envie <code className="font-mono text-xs">x-webhook-signature: t=&lt;segundos Unix&gt;,v1=&lt;assinatura&gt;</code>, onde a
                    assinatura é o HMAC-SHA256 (hexadecimal) de <code className="font-mono text-xs">&lt;t&gt;.&lt;corpo exato&gt;</code> com o segredo da escola.
                  </p>
                  <p className="text-muted-foreground">
                    É mais seguro: o segredo nunca trafega, uma requisição alterada é recusada, e cada assinatura vale uma vez só, por até 5 minutos (uma requisição
                    copiada não pode ser repetida). Com o cabeçalho presente, assinatura inválida, vencida ou já usada responde 401, mesmo junto do segredo certo. Assine
                    cada envio de novo, inclusive as novas tentativas.
                  </p>
                </div>
                <Example title="Exemplo assinado (curl + openssl)" code={signedExamples(url, d.request).shell} />
                <Example title="Exemplo assinado (Node.js 18+)" code={signedExamples(url, d.request).node} />
              </div>
            )}
            <div className="grid gap-1">
              <h3 className="text-sm font-medium">Resposta</h3>
              <pre className="max-w-full overflow-x-auto rounded-lg bg-muted p-3 text-xs">{JSON.stringify(d.response, null, 2)}</pre>
            </div>
            <ul className="list-disc pl-5 text-sm text-muted-foreground">
              {d.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}
