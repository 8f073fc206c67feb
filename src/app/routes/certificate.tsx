// Public verification of a certificate (issue 14): /certificado/<code>, no sign-in. The page is
// features/certificates' own; nothing else to compose.
export { default } from '@/features/certificates/components/certificate-page';
