import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';

/**
 * A list's search box: what is typed filters the list on the server, from its first page.
 * `onSearch` gets the text as typed (the page trims it into its query).
 */
export function ListSearch({
  label,
  value,
  onSearch,
  paging,
  sx = { flex: '1 1 14rem', maxWidth: 360 },
}: {
  label: string;
  value: string;
  onSearch: (text: string) => void;
  /** the list's paging, sent back to its first page on each change */
  paging: { setPage: (page: number) => void };
  sx?: SxProps<Theme>;
}) {
  return (
    <TextField
      size="small"
      type="search"
      label={label}
      value={value}
      onChange={(e) => {
        onSearch(e.target.value);
        paging.setPage(0);
      }}
      sx={sx}
    />
  );
}
