import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';
import { toast } from '@/platform/toast';
import { CertificateCard } from './certificate-button';

const api = vi.hoisted(() => ({ issueCertificate: vi.fn() }));
const pdf = vi.hoisted(() => ({ createCertificatePdf: vi.fn() }));
const downloadBlob = vi.hoisted(() => vi.fn());
vi.mock('@/platform/supabase', () => ({ supabase: {} }));
vi.mock('../api/queries', async (importOriginal) => ({ ...(await importOriginal<object>()), ...api }));
vi.mock('../lib/certificate-pdf', () => pdf);
vi.mock('@/utils/download', () => ({ downloadBlob }));
vi.mock('@/platform/toast', () => ({ toast: { error: vi.fn(), success: vi.fn(), message: vi.fn() } }));

const certificate = {
  code: 'ABCD-2345-EFGH',
  student_name: 'Maria da Silva',
  course_title: 'Excel Essencial',
  school_name: 'Escola Demo',
  completed_at: '2026-11-20T12:00:00Z',
  workload_hours: 12,
  issued_at: '2026-11-21T12:00:00Z',
};

describe('CertificateCard', () => {
  beforeEach(() => {
    api.issueCertificate.mockReset();
    pdf.createCertificatePdf.mockReset();
    downloadBlob.mockReset();
    vi.mocked(toast.error).mockReset();
  });

  it('Baixar certificado records the certificate, draws the PDF with its verification link and saves it by the course slug', async () => {
    api.issueCertificate.mockResolvedValue(certificate);
    pdf.createCertificatePdf.mockResolvedValue(new Uint8Array([37, 80, 68, 70]));
    renderScreen(<CertificateCard courseId="c1" courseSlug="excel-essencial" />);
    expect(screen.getByRole('heading', { name: 'Parabéns, você concluiu este curso!' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Baixar certificado' }));
    await waitFor(() => expect(downloadBlob).toHaveBeenCalledWith('certificado-excel-essencial.pdf', expect.any(Blob)));
    expect(api.issueCertificate).toHaveBeenCalledWith(expect.anything(), 'c1');
    expect(pdf.createCertificatePdf).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'ABCD-2345-EFGH', studentName: 'Maria da Silva', verifyUrl: `${window.location.origin}/certificado/ABCD-2345-EFGH` }),
    );
  });

  it("the database's refusal is said as it is, and nothing is saved", async () => {
    api.issueCertificate.mockRejectedValue({ code: '42501', message: 'Conclua todas as aulas do curso para emitir o certificado.' });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderScreen(<CertificateCard courseId="c1" courseSlug="excel-essencial" />);
    await userEvent.click(screen.getByRole('button', { name: 'Baixar certificado' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Não foi possível gerar o certificado', { description: 'Conclua todas as aulas do curso para emitir o certificado.' }),
    );
    expect(downloadBlob).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Baixar certificado' })).toBeEnabled();
  });
});
