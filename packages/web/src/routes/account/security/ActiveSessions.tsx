import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import ComputerIcon from '@mui/icons-material/ComputerOutlined';
import PhoneIcon from '@mui/icons-material/SmartphoneOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ActiveSession } from '@passgate/contract';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Loading } from '../../../components/Loading.tsx';
import { Notice } from '../../../components/Notice.tsx';
import { DangerConfirmDialog } from './DangerConfirmDialog.tsx';
import { AccountErrorNotice } from '../AccountErrorNotice.tsx';
import { SectionCard } from '../profile/SectionCard.tsx';
import { useAccountApi } from '../use-account-api.ts';
import { dateTimeFormat } from '../date-format.ts';

export const SESSIONS_KEY = ['me', 'sessions'] as const;

const MOBILE_OS = /^(iOS|Android|iPadOS)/;

/** 'Chrome 131 · Windows 10': what a person recognises of a session. */
export function sessionName(t: TFunction, session: Pick<ActiveSession, 'browser' | 'os'>): string {
  return [session.browser || t('account.security.sessions.unknownBrowser'), session.os].filter(Boolean).join(' · ');
}

/** 'Last active 5 minutes ago', 'Hoạt động lần cuối 5 phút trước'; under a minute ago, 'Active now'. */
export function lastActive(t: TFunction, iso: string, language: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (seconds > -60) return t('account.security.sessions.activeNow');
  return t('account.security.sessions.lastActive', { when: relative(seconds, language) });
}

function relative(seconds: number, language: string): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const minutes = Math.round(seconds / 60);
  if (minutes > -60) return format.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours > -24) return format.format(hours, 'hour');
  return format.format(Math.round(hours / 24), 'day');
}

interface Confirmation {
  /** One session, or every other one. */
  session?: ActiveSession;
}

/**
 * 'Where you're signed in' on the Security page: each provider session of the account (browser and
 * OS, address or place, applications, sign-in time, last activity), this one marked; signing one or
 * all of the others out, each after a confirmation.
 */
export function ActiveSessions() {
  const { t, i18n } = useTranslation();
  const api = useAccountApi();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: () => api.sessions(), staleTime: 30_000 });
  // The dialog keeps what it asked about while it closes.
  const [confirming, setConfirming] = useState<Confirmation>({});
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const language = i18n.language === 'en' ? 'en' : 'vi';
  const dates = dateTimeFormat(language);
  const items = sessions.data?.items ?? [];
  const others = items.filter((s) => !s.current);

  const confirm = async () => {
    if (!open || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      if (confirming.session) {
        await api.signOutSession(confirming.session.id);
        setDone(t('account.security.sessions.signedOut', { session: sessionName(t, confirming.session) }));
      } else {
        const { signedOut } = await api.signOutOtherSessions();
        setDone(t('account.security.sessions.signedOutOthers', { count: signedOut }));
      }
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
      void queryClient.invalidateQueries({ queryKey: ['me', 'security-events'] });
    }
  };

  return (
    <SectionCard id="security-sessions" title={t('account.security.sessions.title')} description={t('account.security.sessions.description')}>
      <AccountErrorNotice error={sessions.error ?? failure} />
      {done && <Notice severity="success" message={done} />}
      {sessions.isPending && <Loading />}
      {items.length > 0 && (
        <List disablePadding aria-label={t('account.security.sessions.listLabel')}>
          {items.map((session, index) => {
            const name = sessionName(t, session);
            const signedInAt = dates.format(new Date(session.signedInAt));
            const address = [session.place, session.ip].filter(Boolean).join(' · ');
            const Icon = MOBILE_OS.test(session.os) ? PhoneIcon : ComputerIcon;
            return (
              <ListItem
                key={session.id}
                disableGutters
                divider={index < items.length - 1}
                sx={{ py: 1.5, alignItems: 'flex-start', gap: 2, flexWrap: { xs: 'wrap', sm: 'nowrap' } }}
              >
                <Icon aria-hidden sx={{ color: 'text.secondary', mt: 0.25 }} />
                {/* On a narrow screen the text takes the row and the button goes under it. */}
                <Box sx={{ flex: { xs: '1 1 calc(100% - 40px)', sm: '1 1 auto' }, minWidth: 0 }}>
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                    <Typography component="h3" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                      {name}
                    </Typography>
                    {session.current && <Chip size="small" color="success" label={t('account.security.sessions.thisSession')} />}
                  </Box>
                  {address && (
                    <Typography variant="body2" color="textSecondary" sx={{ overflowWrap: 'anywhere' }}>
                      {address}
                    </Typography>
                  )}
                  {session.applications.length > 0 && (
                    <Typography variant="body2" color="textSecondary">
                      {t('account.security.sessions.applications', { names: session.applications.map((a) => a.name).join(', ') })}
                    </Typography>
                  )}
                  <Typography variant="body2" color="textSecondary">
                    {t('account.security.sessions.signedIn', { date: signedInAt })}
                    {' · '}
                    {session.current ? t('account.security.sessions.activeNow') : lastActive(t, session.lastActiveAt, language)}
                  </Typography>
                </Box>
                {!session.current && (
                  <Button
                    variant="outlined"
                    color="error"
                    size="small"
                    sx={{ flexShrink: 0, ml: { xs: 5, sm: 0 } }}
                    aria-label={t('account.security.sessions.signOutLabel', { session: name, date: signedInAt })}
                    onClick={() => {
                      setDone(null);
                      setConfirming({ session });
                      setOpen(true);
                    }}
                  >
                    {t('account.security.sessions.signOut')}
                  </Button>
                )}
              </ListItem>
            );
          })}
        </List>
      )}
      {sessions.isSuccess && others.length === 0 && (
        <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
          {t('account.security.sessions.onlyHere')}
        </Typography>
      )}
      {others.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <Button
            variant="outlined"
            color="error"
            onClick={() => {
              setDone(null);
              setConfirming({});
              setOpen(true);
            }}
          >
            {t('account.security.sessions.signOutOthers')}
          </Button>
        </Box>
      )}
      <DangerConfirmDialog
        open={open}
        busy={busy}
        id="session-sign-out"
        title={confirming.session ? t('account.security.sessions.signOutTitle') : t('account.security.sessions.signOutOthersTitle')}
        text={confirming.session ? t('account.security.sessions.signOutText', { session: sessionName(t, confirming.session) }) : t('account.security.sessions.signOutOthersText')}
        confirmLabel={confirming.session ? t('account.security.sessions.signOut') : t('account.security.sessions.signOutOthers')}
        busyLabel={t('account.security.sessions.signingOut')}
        onCancel={() => setOpen(false)}
        onConfirm={() => void confirm()}
      />
    </SectionCard>
  );
}
