// Notas fiscais (issue 42): the fiscal check of a school's Asaas account, in pt-BR with where to fix each
// thing, shared by invoice-settings (shown to staff, and required empty before the switch turns on).
import { type AsaasClient, type AsaasFiscalInfo, type AsaasMunicipalOptions } from './asaas.ts';

export interface MissingFiscalItem {
  /** A stable name for the screen (and tests). */
  field: string;
  /** What is missing, pt-BR. */
  message: string;
  /** Where the school fixes it, pt-BR. */
  where: string;
}

const AT_ASAAS = 'No Asaas: Minha conta → Informações fiscais';

/** What the school's Asaas account and our setting still lack to issue NFS-e; empty when nothing. */
export function missingFiscalItems(
  info: AsaasFiscalInfo | null,
  options: AsaasMunicipalOptions | null,
  settings: { municipal_service_id: string | null; municipal_service_code: string | null } | null,
): MissingFiscalItem[] {
  const missing: MissingFiscalItem[] = [];
  const blank = (v: unknown) => v === null || v === undefined || String(v).trim() === '';
  if (!info) {
    missing.push({ field: 'fiscalInfo', message: 'As informações fiscais da empresa não foram cadastradas no Asaas.', where: AT_ASAAS });
  } else {
    if (blank(info.municipalInscription)) missing.push({ field: 'municipalInscription', message: 'Inscrição municipal da empresa.', where: AT_ASAAS });
    if (info.simplesNacional === null || info.simplesNacional === undefined) {
      missing.push({ field: 'simplesNacional', message: 'Se a empresa é optante pelo Simples Nacional.', where: AT_ASAAS });
    }
    if (blank(info.rpsSerie) || blank(info.rpsNumber)) missing.push({ field: 'rps', message: 'Série e número do próximo RPS.', where: `${AT_ASAAS} (confira com a prefeitura)` });
    if (options?.authenticationType === 'CERTIFICATE' && !info.certificateSent) {
      missing.push({ field: 'certificate', message: 'Certificado digital (e-CNPJ A1) da empresa.', where: `${AT_ASAAS} → Certificado digital` });
    }
    if (options?.authenticationType === 'USER_AND_PASSWORD' && (blank(info.username) || !info.passwordSent)) {
      missing.push({ field: 'credentials', message: 'Usuário e senha do portal da prefeitura.', where: `${AT_ASAAS} → Acesso à prefeitura` });
    }
    if (options?.authenticationType === 'TOKEN' && !info.accessTokenSent) {
      missing.push({ field: 'accessToken', message: 'Token de acesso do portal da prefeitura.', where: `${AT_ASAAS} → Acesso à prefeitura` });
    }
    if (options?.usesSpecialTaxRegimes && blank(info.specialTaxRegime)) {
      missing.push({ field: 'specialTaxRegime', message: 'Regime especial de tributação.', where: AT_ASAAS });
    }
    if (options?.usesServiceListItem && blank(info.serviceListItem)) {
      missing.push({ field: 'serviceListItem', message: 'Item da lista de serviço (LC 116).', where: AT_ASAAS });
    }
  }
  if (!settings || (blank(settings.municipal_service_id) && blank(settings.municipal_service_code))) {
    missing.push({ field: 'municipalService', message: 'O serviço municipal das notas.', where: 'Aqui: Configurações → Notas fiscais → Serviço municipal' });
  }
  return missing;
}

/** Asaas's fiscal information and its municipality's requirements (null options when Asaas has none to give). */
export async function readFiscalInfo(asaas: AsaasClient): Promise<{ info: AsaasFiscalInfo | null; options: AsaasMunicipalOptions | null }> {
  const info = await asaas.fiscalInfo();
  const options = info ? await asaas.municipalOptions() : null;
  return { info, options };
}
