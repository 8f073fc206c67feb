// Sign-in and sign-up rules (SPEC §5) as react-hook-form register rules: the login page is the first
// download, and these few checks do not need a schema library (zod loads with the later screens).
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
