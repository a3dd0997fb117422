import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { AppTemplate } from '@slipway/contracts';

/**
 * The app templates as selectable cards: one radio group (arrow keys move between them), each
 * radio named by its template's name and described by its description; the whole card picks it.
 * One card a row on a phone, two or three side by side on wider screens.
 */
export function TemplateCards({
  templates,
  value,
  onChange,
  labelledBy,
}: {
  templates: readonly AppTemplate[];
  value: string;
  onChange: (id: string) => void;
  /** the id of the heading that names the group */
  labelledBy: string;
}) {
  const { t } = useTranslation();
  return (
    <RadioGroup
      aria-labelledby={labelledBy}
      name="quick-setup-template"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    >
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: {
            xs: 'minmax(0, 1fr)',
            sm: 'repeat(2, minmax(0, 1fr))',
            lg: 'repeat(3, minmax(0, 1fr))',
          },
        }}
      >
        {templates.map((template) => {
          const id = `quick-setup-template-${template.id}`;
          const selected = template.id === value;
          return (
            <Paper
              key={template.id}
              component="label"
              variant="outlined"
              data-testid="quick-setup-template"
              data-selected={selected ? 'true' : 'false'}
              sx={{
                p: 2,
                paddingInlineStart: 1,
                display: 'flex',
                gap: 1,
                alignItems: 'flex-start',
                minWidth: 0,
                cursor: 'pointer',
                borderColor: selected ? 'primary.main' : 'divider',
                boxShadow: (theme) => (selected ? `inset 0 0 0 1px ${theme.palette.primary.main}` : 'none'),
                '&:hover': { borderColor: 'primary.main' },
                '&:has(:focus-visible)': { outline: 2, outlineColor: 'primary.main', outlineOffset: 2 },
              }}
            >
              <Radio
                value={template.id}
                sx={{ mt: -0.75 }}
                slotProps={{
                  input: { 'aria-labelledby': `${id}-name`, 'aria-describedby': `${id}-description` },
                }}
              />
              <Box sx={{ minWidth: 0, display: 'grid', gap: 1, alignContent: 'start' }}>
                <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                  <Typography id={`${id}-name`} component="span" sx={{ fontWeight: 600 }}>
                    {template.name}
                  </Typography>
                  <Chip
                    size="small"
                    variant="outlined"
                    label={t(`quickSetup.languages.${template.language}`, {
                      defaultValue: template.language,
                    })}
                  />
                </Box>
                <Typography id={`${id}-description`} variant="body2" color="text.secondary">
                  {template.description}
                </Typography>
                <Typography id={`${id}-files`} variant="caption" color="text.secondary" component="p">
                  {t('quickSetup.template.files')}
                </Typography>
                <Box
                  component="ul"
                  aria-labelledby={`${id}-files`}
                  sx={{ m: 0, p: 0, listStyle: 'none', display: 'flex', flexWrap: 'wrap', gap: 0.5 }}
                >
                  {template.files.map((file) => (
                    <Box
                      component="li"
                      key={file}
                      dir="ltr"
                      sx={{
                        fontFamily: 'monospace',
                        fontSize: '0.75rem',
                        px: 0.5,
                        borderRadius: 0.5,
                        bgcolor: 'action.hover',
                        overflowWrap: 'anywhere',
                      }}
                    >
                      {file}
                    </Box>
                  ))}
                </Box>
              </Box>
            </Paper>
          );
        })}
      </Box>
    </RadioGroup>
  );
}
