/* eslint-disable react-refresh/only-export-components -- test helpers */
// Test helpers: a SessionContext value with overrides, and a router with the app's guards.
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import type { User } from '@supabase/supabase-js';
import { SessionContext, type ProfileRow, type SessionContextValue } from '@/platform/session';

export const testUser = { id: 'u1', email: 'aluno@escola-demo.com.br', user_metadata: {} } as unknown as User;

export const testProfile: ProfileRow = {
  id: 'u1',
  school_id: 's1',
  name: 'Ana Aluna',
  email: 'aluno@escola-demo.com.br',
  phone: null,
  cpf: null,
  address: null,
  avatar_url: null,
  is_active: true,
  must_change_password: false,
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
};

export function sessionValue(overrides: Partial<SessionContextValue> = {}): SessionContextValue {
  return {
    session: null,
    user: null,
    profile: null,
    roles: [],
    school: null,
    isAdmin: false,
    loading: false,
    initializing: false,
    profileMissing: false,
    mustChangePassword: false,
    needsSecondFactor: false,
    secondFactorSetupRequired: false,
    passwordRecovery: false,
    endPasswordRecovery: vi.fn(),
    authFlowPending: false,
    setAuthFlowPending: vi.fn(),
    signOut: vi.fn(async () => '/auth'),
    signOutTarget: null,
    ...overrides,
  };
}

export function signedIn(overrides: Partial<SessionContextValue> = {}): SessionContextValue {
  return sessionValue({ user: testUser, profile: testProfile, ...overrides });
}

export function WithSession({ value, children }: { value: SessionContextValue; children: ReactNode }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
