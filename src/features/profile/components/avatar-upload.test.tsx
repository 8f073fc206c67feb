import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { gifOfScreens } from '@/test/animated-images';
import { AvatarUpload } from './avatar-upload';

// The upload itself (Storage) is the hook's; here, what reaches it.
const mutate = vi.hoisted(() => vi.fn());
vi.mock('../api/hooks', () => ({ useUploadAvatar: () => ({ mutate, isPending: false }) }));

describe('AvatarUpload', () => {
  it('refuses an animated GIF whose frames add up past what Storage renders (1.4 KB, 60 frames of 2048×2048); sends a normal one', async () => {
    render(<AvatarUpload userId="u1" name="Ana Souza" avatarUrl={null} />);
    const input = screen.getByLabelText('Alterar foto de perfil');
    await userEvent.upload(input, new File([gifOfScreens(2048, 60)], 'avatar.gif', { type: 'image/gif' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'A animação é grande demais: diminua as dimensões ou o número de quadros (até 50 megapixels somando os quadros)',
    );
    expect(mutate).not.toHaveBeenCalled();

    const normal = new File([gifOfScreens(320, 60)], 'avatar.gif', { type: 'image/gif' });
    await userEvent.upload(input, normal);
    await waitFor(() => expect(mutate).toHaveBeenCalledWith({ file: normal, previousUrl: null }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
