import { useState } from 'react';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import { useTranslation } from 'react-i18next';
import type { PasswordPolicy } from '@passgate/contract';
import { ActionButton } from '../../components/ActionButton.tsx';
import { visuallyHidden } from '../../theme/visually-hidden.ts';
import { passwordRequirementList } from './flow-validation.ts';

/**
 * The tenant's password requirements (SPEC.md section 5): an info button whose tooltip lists them
 * (hover, focus or tap), and the same list as hidden text that the password field points to with
 * aria-describedby, so a screen reader reads it with the field.
 */
export function PasswordRequirements({ policy, descriptionId }: { policy: PasswordPolicy; descriptionId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const items = passwordRequirementList(policy).map(({ requirement, count }) => t(`passwordRequirements.${requirement}`, { count }));
  const title = t('passwordRequirements.title');

  return (
    <>
      <Tooltip
        open={open}
        onOpen={() => setOpen(true)}
        onClose={() => setOpen(false)}
        describeChild
        arrow
        placement="top-start"
        enterTouchDelay={0}
        leaveTouchDelay={6000}
        title={
          <Box sx={{ py: 0.5 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {title}
            </Typography>
            <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5, typography: 'body2' }}>
              {items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </Box>
          </Box>
        }
      >
        <ActionButton
          aria-label={t('passwordRequirements.button')}
          onClick={() => setOpen(true)}
          sx={{ minWidth: 0, minHeight: 0, p: 0.5, borderRadius: '50%', color: 'text.secondary' }}
        >
          <InfoOutlined fontSize="small" />
        </ActionButton>
      </Tooltip>
      <Box component="span" id={descriptionId} sx={visuallyHidden}>
        {`${title} ${items.join('; ')}.`}
      </Box>
    </>
  );
}
