import { describe, expect, it } from 'vitest';
import { type SourceLoader, sourceOrder, withSession } from '../../src/auth/resolver.js';
import type { AuthSourceId, Session, SourceResult } from '../../src/auth/types.js';
import { ApiError, NoSessionError, NotLoggedInError, TimeoutError } from '../../src/errors.js';
import type { Platform } from '../../src/local/environment.js';

describe('sourceOrder', () => {
  it.each<[Platform, 'auto' | 'web' | 'rpc', AuthSourceId[]]>([
    ['linux', 'auto', ['manual', 'cached', 'stored', 'app', 'agent', 'browser', 'apikey']],
    ['win32', 'auto', ['manual', 'cached', 'stored', 'app', 'agent', 'browser', 'apikey']],
    ['darwin', 'auto', ['manual', 'app', 'cached', 'browser', 'stored', 'agent', 'apikey']],
    ['linux', 'rpc', ['manual', 'app', 'agent', 'apikey']],
    ['darwin', 'rpc', ['manual', 'app', 'agent', 'apikey']],
    ['linux', 'web', ['manual', 'cached', 'stored', 'browser']],
    ['win32', 'web', ['manual', 'cached', 'stored', 'browser']],
    ['darwin', 'web', ['manual', 'cached', 'browser', 'stored']],
  ])('%s --source %s tries %j', (platform, mode, expected) => {
    expect(sourceOrder(platform, mode)).toEqual(expected);
  });
});

type Outcome = 'ok' | '401' | '500' | 'timeout' | 'skip';

/** A ladder whose sources answer as scripted; `tried` records which sessions were sent. */
function ladder(script: Array<[AuthSourceId, Outcome, { final?: boolean }?]>) {
  const tried: AuthSourceId[] = [];
  const loaders: SourceLoader[] = script.map(([id, outcome, extra]) => ({
    id,
    name: `${id} source`,
    load: async () =>
      outcome === 'skip'
        ? {
            kind: 'skip' as const,
            reason: `no ${id} here`,
            hint: id === 'agent' ? 'run cursor-agent login' : undefined,
          }
        : {
            kind: 'session' as const,
            session: { source: id, description: id, cookieHeader: `c=${id}`, ...extra },
          },
  }));
  const perform = async (session: Session) => {
    tried.push(session.source);
    const outcome = script.find(([id]) => id === session.source)?.[1];
    if (outcome === '401') throw new NotLoggedInError('GET /api/usage-summary', 401);
    if (outcome === '500') throw new ApiError('GET /api/usage-summary', 'HTTP 500', { status: 500 });
    if (outcome === 'timeout') throw new TimeoutError('GET /api/usage-summary', 15_000);
    return session.source;
  };
  return { loaders, perform, tried };
}

describe('withSession: only "not logged in" moves on', () => {
  it('uses the first source that works and logs the skipped ones', async () => {
    const { loaders, perform, tried } = ladder([
      ['cached', 'skip'],
      ['stored', '401'],
      ['app', 'ok'],
      ['agent', 'ok'],
    ]);
    const log: string[] = [];
    const result = await withSession(
      { ladder: loaders, log: (l) => log.push(l), noSessionHint: 'h' },
      perform,
    );
    expect(result.value).toBe('app');
    expect(tried).toEqual(['stored', 'app']);
    expect(log).toEqual([
      '[cursor] Skipped cached source: no cached here',
      '[cursor] Using stored',
      '[cursor] Stored source was rejected (HTTP 401); trying the next source',
      '[cursor] Using app',
    ]);
  });

  it.each<[Outcome, string]>([
    ['500', 'ApiError'],
    ['timeout', 'TimeoutError'],
  ])('a %s never falls back to another account', async (outcome, errorName) => {
    const { loaders, perform, tried } = ladder([
      ['app', outcome],
      ['agent', 'ok'],
    ]);
    await expect(withSession({ ladder: loaders, noSessionHint: 'h' }, perform)).rejects.toHaveProperty(
      'name',
      errorName,
    );
    expect(tried).toEqual(['app']);
  });

  it('a rejected final session (manual header, pinned cache) ends the run with a hint', async () => {
    const { loaders, perform, tried } = ladder([
      ['manual', '401', { final: true }],
      ['agent', 'ok'],
    ]);
    const failure = withSession({ ladder: loaders, noSessionHint: 'h' }, perform);
    await expect(failure).rejects.toBeInstanceOf(NotLoggedInError);
    await expect(failure).rejects.toHaveProperty('hint', expect.stringMatching(/fresh Cookie header/));
    expect(tried).toEqual(['manual']);
  });

  it("nothing usable: NoSessionError listing every place and the sources' own hints", async () => {
    const { loaders, perform } = ladder([
      ['cached', 'skip'],
      ['agent', 'skip'],
    ]);
    const failure = withSession({ ladder: loaders, noSessionHint: 'Sign in.' }, perform);
    await expect(failure).rejects.toBeInstanceOf(NoSessionError);
    await expect(failure).rejects.toHaveProperty(
      'message',
      'No Cursor session found. Looked at: cached source (no cached here); agent source (no agent here).',
    );
    await expect(failure).rejects.toHaveProperty('hint', 'run cursor-agent login Sign in.');
  });

  it('every session rejected: "Not logged in" naming what was tried', async () => {
    const { loaders, perform } = ladder([
      ['app', '401'],
      ['agent', '401'],
    ]);
    await expect(withSession({ ladder: loaders, noSessionHint: 'h' }, perform)).rejects.toThrow(
      /^Not logged in to Cursor: every session was rejected\. Tried: app source \(rejected by cursor\.com with HTTP 401\); agent source/,
    );
  });
});

describe('withSession: a source with several candidates (browser profiles)', () => {
  /** A source whose candidates are tried one after another; each one's notes come first. */
  function browserLoader(cookies: string[]): SourceLoader {
    const answer = (index: number): SourceResult => {
      const cookie = cookies[index];
      if (cookie === undefined) {
        return {
          kind: 'skip',
          reason: 'no other browser profile has a usable cookie',
          notes: [`note before end`],
        };
      }
      return {
        kind: 'session',
        session: { source: 'browser', description: `browser cookie ${cookie}`, cookieHeader: `c=${cookie}` },
        notes: [`note before ${cookie}`],
        next: async () => answer(index + 1),
      };
    };
    return { id: 'browser', name: 'browser cookie', load: async () => answer(0) };
  }

  it('a rejected candidate moves on to the next one of the same source, then to the next source', async () => {
    const sent: string[] = [];
    const log: string[] = [];
    const agent: SourceLoader = {
      id: 'agent',
      name: 'agent source',
      load: async () => ({
        kind: 'session',
        session: { source: 'agent', description: 'agent', cookieHeader: 'c=agent' },
      }),
    };
    const result = await withSession(
      { ladder: [browserLoader(['one', 'two']), agent], log: (line) => log.push(line), noSessionHint: 'h' },
      async (session) => {
        sent.push(session.cookieHeader);
        if (session.source === 'browser') throw new NotLoggedInError('GET /api/usage-summary', 401);
        return session.source;
      },
    );
    expect(result.value).toBe('agent');
    expect(sent).toEqual(['c=one', 'c=two', 'c=agent']);
    expect(log).toEqual([
      '[cursor] note before one',
      '[cursor] Using browser cookie one',
      '[cursor] Browser cookie was rejected (HTTP 401); trying the next browser cookie',
      '[cursor] note before two',
      '[cursor] Using browser cookie two',
      '[cursor] Browser cookie was rejected (HTTP 401); trying the next browser cookie',
      '[cursor] note before end',
      '[cursor] Skipped browser cookie: no other browser profile has a usable cookie',
      '[cursor] Using agent',
    ]);
  });

  it('a candidate that fails otherwise (HTTP 500) ends the run: no other profile is tried', async () => {
    const sent: string[] = [];
    const failure = withSession(
      { ladder: [browserLoader(['one', 'two'])], noSessionHint: 'h' },
      async (session) => {
        sent.push(session.cookieHeader);
        throw new ApiError('GET /api/usage-summary', 'HTTP 500', { status: 500 });
      },
    );
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    expect(sent).toEqual(['c=one']);
  });
});

describe('withSession: the opt-in refresh (docs/api2.md, "Token refresh (opt-in)")', () => {
  const session = (source: AuthSourceId, cookie: string): SourceResult => ({
    kind: 'session',
    session: { source, description: `${source} ${cookie}`, cookieHeader: `c=${cookie}` },
  });
  const expired: SourceResult = {
    kind: 'skip',
    cause: 'expired',
    reason: 'app source is expired (expired x)',
  };
  const agent: SourceLoader = {
    id: 'agent',
    name: 'agent source',
    load: async () => session('agent', 'agent'),
  };

  /** An app rung that loads `first`, and counts its refreshes, which answer `refreshed`. */
  function app(first: SourceResult, refreshed: () => Promise<SourceResult>) {
    const calls = { refresh: 0 };
    const loader: SourceLoader = {
      id: 'app',
      name: 'app source',
      load: async () => first,
      refresh: () => {
        calls.refresh++;
        return refreshed();
      },
    };
    return { loader, calls };
  }

  it('an expired token is refreshed once and the new session used', async () => {
    const { loader, calls } = app(expired, async () => session('app', 'fresh'));
    const log: string[] = [];
    const result = await withSession(
      { ladder: [loader, agent], log: (line) => log.push(line), noSessionHint: 'h' },
      async (s) => s.cookieHeader,
    );
    expect(result.value).toBe('c=fresh');
    expect(calls.refresh).toBe(1);
    expect(log).toEqual([
      '[cursor] App source: app source is expired (expired x); refreshing it for this run (token refresh is opted in)',
      '[cursor] Using app fresh',
    ]);
  });

  it('without a refresh, an expired token is skipped as before', async () => {
    const loader: SourceLoader = { id: 'app', name: 'app source', load: async () => expired };
    const result = await withSession(
      { ladder: [loader, agent], noSessionHint: 'h' },
      async (s) => s.cookieHeader,
    );
    expect(result.value).toBe('c=agent');
  });

  it('a rejected session is refreshed once and tried again; a second rejection moves on', async () => {
    const { loader, calls } = app(session('app', 'old'), async () => session('app', 'fresh'));
    const sent: string[] = [];
    const result = await withSession({ ladder: [loader, agent], noSessionHint: 'h' }, async (s) => {
      sent.push(s.cookieHeader);
      if (s.source === 'app')
        throw new NotLoggedInError('POST /aiserver.v1.DashboardService/GetCurrentPeriodUsage', 401);
      return s.cookieHeader;
    });
    expect(result.value).toBe('c=agent');
    expect(sent).toEqual(['c=old', 'c=fresh', 'c=agent']);
    expect(calls.refresh).toBe(1);
  });

  it('a refused refresh is a rejection: its hint kept, the next source tried', async () => {
    const { loader } = app(expired, async () => {
      throw new NotLoggedInError(
        'POST /oauth/token',
        401,
        'refreshing the app token failed (HTTP 401)',
        'Sign in again.',
      );
    });
    const log: string[] = [];
    const result = await withSession(
      { ladder: [loader, agent], log: (line) => log.push(line), noSessionHint: 'h' },
      async (s) => s.source,
    );
    expect(result.value).toBe('agent');
    expect(log).toContain('[cursor] Refreshing the app token failed (HTTP 401); trying the next source');
    const alone = withSession(
      { ladder: [app(expired, loader.refresh!).loader], noSessionHint: 'h' },
      async () => 1,
    );
    await expect(alone).rejects.toBeInstanceOf(NotLoggedInError);
    await expect(alone).rejects.toHaveProperty('hint', 'Sign in again. h');
    await expect(alone).rejects.toThrow(
      'Not logged in to Cursor: every session was rejected. Tried: app source (refreshing the app token failed (HTTP 401)).',
    );
  });

  it('a transient refresh failure ends the run', async () => {
    const { loader } = app(expired, async () => {
      throw new ApiError('POST /oauth/token', 'no token', { status: 200 });
    });
    await expect(
      withSession({ ladder: [loader, agent], noSessionHint: 'h' }, async () => 1),
    ).rejects.toBeInstanceOf(ApiError);
  });
});

describe('withSession: the API-key session', () => {
  const apiKey: SourceLoader = {
    id: 'apikey',
    name: 'Cursor API key',
    load: async () => ({
      kind: 'session',
      session: {
        source: 'apikey',
        description: 'key',
        cookieHeader: '',
        accessToken: 'tok-0123456789',
        rpcOnly: true,
      },
    }),
  };
  it.each([
    [new NotLoggedInError('POST /aiserver.v1.DashboardService/GetCurrentPeriodUsage', 401), 401],
    [
      new ApiError('POST /aiserver.v1.DashboardService/GetCurrentPeriodUsage', 'HTTP 403', { status: 403 }),
      403,
    ],
  ])('api2 refusing its token says the exchange is unverified (%#)', async (error, status) => {
    const failure = withSession({ ladder: [apiKey], noSessionHint: 'h', purpose: 'usage' }, async () => {
      throw error;
    });
    await expect(failure).rejects.toBeInstanceOf(NotLoggedInError);
    await expect(failure).rejects.toThrow(
      `api2 did not accept the access token exchanged for CURSOR_API_KEY for usage (HTTP ${status}); that this works is unverified. Sign in another way:`,
    );
  });

  it('other failures pass through as they are', async () => {
    const failure = withSession({ ladder: [apiKey], noSessionHint: 'h' }, async () => {
      throw new ApiError('POST /aiserver.v1.DashboardService/GetCurrentPeriodUsage', 'HTTP 500', {
        status: 500,
      });
    });
    await expect(failure).rejects.toThrow('HTTP 500');
  });
});
