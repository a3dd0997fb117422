import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';

/** Where someone holds a role ("Production: Developer"), one small outlined chip each, wrapping. */
export function RoleChips({ chips }: { chips: { key: string; label: string }[] }) {
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {chips.map((c) => (
        <Chip key={c.key} size="small" variant="outlined" label={c.label} />
      ))}
    </Stack>
  );
}
