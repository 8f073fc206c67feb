// Sign-in and sign-up rules (SPEC §5) as react-hook-form register rules: the login page is the first
// download, and these few checks do not need a schema library (zod loads with the later screens).
// The login form itself checks them with firstError() (no form library on the first route).
export const MIN_PASSWORD = 6;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface LoginValues {
  email: string;
  password: string;
}
export interface SignUpValues extends LoginValues {
  name: string;
}

const required = (message: string) => (v: string) => v.trim() !== '' || message;

export const emailRules = {
  validate: { required: required('Informe seu email'), format: (v: string) => EMAIL.test(v.trim()) || 'Informe um email válido' },
};
export const loginPasswordRules = { validate: (v: string) => v !== '' || 'Informe sua senha' };
export const newPasswordRules = {
  validate: (v: string) => v.length >= MIN_PASSWORD || 'A senha deve ter no mínimo 6 caracteres',
};
export const nameRules = {
  validate: { required: required('Informe seu nome completo'), max: (v: string) => v.trim().length <= 200 || 'Nome muito longo' },
};

type Check = (v: string) => true | string;

/** The message of the first rule `value` breaks, as react-hook-form would report it; undefined when valid. */
export function firstError(value: string, rules: { validate: Check | Record<string, Check> }): string | undefined {
  const checks = typeof rules.validate === 'function' ? [rules.validate] : Object.values(rules.validate);
  for (const check of checks) {
    const result = check(value);
    if (result !== true) return result;
  }
  return undefined;
}
