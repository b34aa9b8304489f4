/**
 * @module auth/auth-context
 * The signed-in state of the console: which credentials it uses (an API key held for the browser
 * session, or lakeline's session cookie), and signing in and out. On start it takes the stored
 * key, else tries the cookie session (unless the user left it in this tab).
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { checkCredentials, createApiClient, type ApiClient, type Credentials } from '../api/client.ts';
import { dropSessionCookie, forgetApiKey, setSignedOutOfSession, signedOutOfSession, storeApiKey, storedApiKey } from './credential-store.ts';

/** What the console knows about the user's credentials. */
export type AuthState =
  | { readonly status: 'checking' }
  | { readonly status: 'signed-out'; readonly sessionAvailable: boolean }
  | { readonly status: 'signed-in'; readonly credentials: Credentials; readonly api: ApiClient };

interface AuthActions {
  /** Verifies an API key against the API and keeps it for the browser session; throws the API's error. */
  signInWithKey(apiKey: string): Promise<void>;
  /** Uses the session cookie (after verifying it works). */
  signInWithSession(): Promise<void>;
  /** Forgets the key, drops the cookie where script can, and stops using the session in this tab. */
  signOut(): void;
}

const AuthContext = createContext<(AuthState & AuthActions) | undefined>(undefined);

const sessionWorks = async (): Promise<boolean> => {
  try {
    await checkCredentials({ kind: 'session' });
    return true;
  } catch {
    return false;
  }
};

const signedIn = (credentials: Credentials): AuthState => ({ status: 'signed-in', credentials, api: createApiClient(credentials) });

/** Provides {@link useAuth} to the app. */
export const AuthProvider = ({ children }: { children: ReactNode }) => {
  const [state, setState] = useState<AuthState>(() => {
    const apiKey = storedApiKey();
    return apiKey ? signedIn({ kind: 'key', apiKey }) : { status: 'checking' };
  });

  useEffect(() => {
    if (state.status !== 'checking') return;
    let live = true;
    void sessionWorks().then((works) => {
      if (!live) return;
      setState(works && !signedOutOfSession() ? signedIn({ kind: 'session' }) : { status: 'signed-out', sessionAvailable: works });
    });
    return () => {
      live = false;
    };
  }, [state.status]);

  const signInWithKey = useCallback(async (apiKey: string) => {
    const credentials: Credentials = { kind: 'key', apiKey: apiKey.trim() };
    await checkCredentials(credentials);
    storeApiKey(credentials.apiKey);
    setState(signedIn(credentials));
  }, []);

  const signInWithSession = useCallback(async () => {
    await checkCredentials({ kind: 'session' });
    setSignedOutOfSession(false);
    setState(signedIn({ kind: 'session' }));
  }, []);

  const signOut = useCallback(() => {
    forgetApiKey();
    dropSessionCookie();
    setSignedOutOfSession(true);
    setState({ status: 'checking' });
  }, []);

  const value = useMemo(() => ({ ...state, signInWithKey, signInWithSession, signOut }), [state, signInWithKey, signInWithSession, signOut]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
};

/** The console's auth state and actions. */
export const useAuth = () => {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
};

/** The API client of the signed-in user (only inside pages behind the sign-in guard). */
export const useApi = (): ApiClient => {
  const auth = useAuth();
  if (auth.status !== 'signed-in') throw new Error('useApi while signed out');
  return auth.api;
};
