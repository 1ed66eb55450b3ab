import { useEffect, useRef, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';

/** A page's heading with its actions beside it (below it on a phone). */
export function PageHeading({ title, subtitle, actions }: { title: string; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mb: 3 }}>
      <Box sx={{ flex: 1, minWidth: 200 }}>
        {/* A user's e-mail address can be the title: it breaks where it must rather than widen a phone's page. */}
        <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
        {subtitle && (
          <Typography variant="body2" color="textSecondary" sx={{ mt: 0.5 }}>
            {subtitle}
          </Typography>
        )}
      </Box>
      {actions}
    </Box>
  );
}

/** The search box of a list: the list follows what is typed after a short pause. */
export function SearchBox({ label, value, onChange, hint }: { label: string; value: string; onChange: (value: string) => void; hint?: string }) {
  const [typed, setTyped] = useState(value);
  useEffect(() => {
    if (typed === value) return;
    const timer = setTimeout(() => onChange(typed), 300);
    return () => clearTimeout(timer);
  }, [typed, value, onChange]);
  return (
    <TextField
      type="search"
      size="small"
      label={label}
      value={typed}
      onChange={(event) => setTyped(event.target.value)}
      helperText={hint}
      sx={{ width: { xs: '100%', sm: 360 } }}
      slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
    />
  );
}

/**
 * A box that scrolls sideways when what it holds is wider (a table on a phone). While it does, it
 * takes the keyboard focus, so the arrow keys scroll it (WCAG 2.1.1: a table without links could not
 * be scrolled otherwise), and is a region named `label`; while it does not, it is no stop on the way.
 */
export function ScrollArea({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollable, setScrollable] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => setScrollable(box.scrollWidth > box.clientWidth);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <Box
      ref={ref}
      {...(scrollable ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
      sx={{ overflowX: 'auto', '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 } }}
    >
      {children}
    </Box>
  );
}

/** A list's frame: the table (scrolling sideways on a phone, named `label` then) and its page controls. */
export function ListFrame({ label, children, page, pageSize, total, onPage, onPageSize }: {
  label: string;
  children: ReactNode;
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <ScrollArea label={label}>{children}</ScrollArea>
      <TablePagination
        component="div"
        count={total}
        page={Math.max(0, page - 1)}
        rowsPerPage={pageSize}
        rowsPerPageOptions={[20, 50, 100]}
        onPageChange={(_, next) => onPage(next + 1)}
        onRowsPerPageChange={(event) => onPageSize(Number(event.target.value))}
        labelRowsPerPage={t('admin.list.perPage')}
        labelDisplayedRows={({ from, to, count }) => t('admin.list.range', { from, to, count })}
        getItemAriaLabel={(type) => t(`admin.list.${type}`)}
        // On a phone the page size gives way, so the page buttons stay on screen.
        sx={{ '& .MuiTablePagination-selectLabel, & .MuiTablePagination-input': { display: { xs: 'none', sm: 'inline-flex' } } }}
      />
    </Paper>
  );
}

/** A row that says the list is empty. */
export function EmptyRow({ columns, text }: { columns: number; text: string }) {
  return (
    <tr>
      <Box component="td" colSpan={columns} sx={{ p: 3, textAlign: 'center', color: 'text.secondary' }}>
        {text}
      </Box>
    </tr>
  );
}
