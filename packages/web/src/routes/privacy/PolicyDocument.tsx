import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { POLICY_INTRO, POLICY_SECTIONS, POLICY_UPDATED } from './privacy-policy.vi.ts';

/**
 * The text of the privacy policy (in Vietnamese): the /privacy page shows it with a table of
 * contents, the Register screen's policy dialog without one.
 */
export function PolicyDocument({ sectionHeading = 'h2', toc = false }: { sectionHeading?: 'h2' | 'h3'; toc?: boolean }) {
  return (
    <Box lang="vi">
      <Typography variant="body2" color="textSecondary" sx={{ mb: 3 }}>
        Cập nhật lần cuối: {POLICY_UPDATED}
      </Typography>
      {POLICY_INTRO.map((text) => (
        <Typography key={text} sx={{ mb: 2 }}>
          {text}
        </Typography>
      ))}
      {toc && (
        <Box component="nav" aria-label="Mục lục" sx={{ mb: 3 }}>
          <Box component="ol" sx={{ pl: 3, m: 0, listStyle: 'none' }}>
            {POLICY_SECTIONS.map((section) => (
              <li key={section.id}>
                <Link href={`#${section.id}`} variant="body2">
                  {section.heading}
                </Link>
              </li>
            ))}
          </Box>
        </Box>
      )}
      {POLICY_SECTIONS.map((section) => (
        <Box component="section" key={section.id} id={toc ? section.id : undefined} aria-labelledby={`${section.id}-heading`} sx={{ mb: 3, scrollMarginTop: 16 }}>
          <Typography variant="h2" component={sectionHeading} id={`${section.id}-heading`} sx={{ mb: 1.5 }}>
            {section.heading}
          </Typography>
          {section.paragraphs?.map((text) => (
            <Typography key={text} sx={{ mb: 1.5 }}>
              {text}
            </Typography>
          ))}
          {section.items && (
            <Box component="ul" sx={{ pl: 3, my: 1 }}>
              {section.items.map((text) => (
                <Typography component="li" key={text} sx={{ mb: 1 }}>
                  {text}
                </Typography>
              ))}
            </Box>
          )}
          {section.closing && <Typography sx={{ mt: 1.5 }}>{section.closing}</Typography>}
        </Box>
      ))}
    </Box>
  );
}
