import { User, type UserManager } from 'oidc-client-ts';

/**
 * The account area's session shared between this origin's tabs, so a second tab opens signed in
 * without a redirect round through the provider. A tab without a session asks the others on a
 * same-origin BroadcastChannel; one that holds a live session answers with it (access and ID
 * token, never a refresh token: the account client gets none). The answer is kept like a session
 * signed in here: in this tab's sessionStorage. A tab that signs out says so, and the others stop
 * offering a session the user ended.
 */
const CHANNEL_NAME = 'passgate.account-session';
/**
 * How long a new tab waits for another tab before it signs in through the provider: only when some
 * tab of this browser said it holds a session, so a first visit goes to sign in at once, and long
 * enough for a busy machine's background tab to answer.
 */
export const ANSWER_WAIT_MS = 1500;
/** In localStorage: that a tab of this browser holds a session (a flag, never a token). */
const PRESENCE_KEY = 'passgate.account-session-open';

function setPresence(open: boolean): void {
  try {
    if (open) window.localStorage.setItem(PRESENCE_KEY, '1');
    else window.localStorage.removeItem(PRESENCE_KEY);
  } catch {
    // Without storage every new tab just asks and waits.
  }
}

function presence(): boolean {
  try {
    return window.localStorage.getItem(PRESENCE_KEY) === '1';
  } catch {
    return true;
  }
}

/** Says this browser has a tab with a session, so that new tabs ask for it. */
export function announceSession(): void {
  setPresence(true);
}

type Message = { type: 'ask' } | { type: 'session'; user: string } | { type: 'signed-out' };

let channel: BroadcastChannel | null = null;

function sessionChannel(users: UserManager): BroadcastChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  if (!channel) {
    channel = new BroadcastChannel(CHANNEL_NAME);
    channel.addEventListener('message', (event: MessageEvent<Message>) => {
      if (event.data?.type === 'ask') void answer(users);
      if (event.data?.type === 'signed-out') void users.removeUser();
    });
  }
  return channel;
}

async function answer(users: UserManager): Promise<void> {
  const user = await users.getUser();
  if (!user || user.expired) return;
  const shared = new User({ ...user, refresh_token: undefined });
  channel?.postMessage({ type: 'session', user: shared.toStorageString() } satisfies Message);
}

/** Lets this tab answer the others (from the moment the account area loads, signed in or not). */
export function offerSessionToOtherTabs(users: UserManager): void {
  sessionChannel(users);
}

/** A live session from another tab, stored as this tab's own; null when none answers in time. */
export function sessionFromOtherTab(users: UserManager): Promise<User | null> {
  const ch = sessionChannel(users);
  if (!ch || !presence()) return Promise.resolve(null);
  return new Promise((resolve) => {
    const onMessage = (event: MessageEvent<Message>) => {
      if (event.data?.type !== 'session') return;
      let user: User;
      try {
        user = User.fromStorageString(event.data.user);
      } catch {
        return;
      }
      if (user.expired !== false) return;
      finish(user);
    };
    const finish = (user: User | null) => {
      clearTimeout(timer);
      ch.removeEventListener('message', onMessage);
      if (!user) return resolve(null);
      // Through the manager, so its expiry events and getUser() see the session like one signed in here.
      void users.storeUser(user).then(
        () => users.getUser().then(resolve),
        () => resolve(null),
      );
    };
    const timer = setTimeout(() => finish(null), ANSWER_WAIT_MS);
    ch.addEventListener('message', onMessage);
    ch.postMessage({ type: 'ask' } satisfies Message);
  });
}

/** Tells the other tabs the user signed out, so none hands the ended session to a new tab. */
export function announceSignOut(): void {
  setPresence(false);
  channel?.postMessage({ type: 'signed-out' } satisfies Message);
}
