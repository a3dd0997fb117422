import Close from '@mui/icons-material/Close';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import { alpha, type Theme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PipelineDetail } from '@slipway/contracts';
import { Button } from '../../ui/Button';
import { QueryPending } from '../../ui/QueryPending';
import { usePipelineVersionQuery } from './api';
import { lineDiff, type DiffLine, type LineDiff } from './line-diff';

export type VersionInfo = PipelineDetail['versions'][number];
export const formatOf = (v: VersionInfo) => v.format.toUpperCase();

/** A version's definition: the current one is on the page already, another one is fetched. */
export function useVersionText(pipeline: PipelineDetail, version: number) {
  const current = version === pipeline.version;
  const query = usePipelineVersionQuery({ id: pipeline.id, version }, { skip: current });
  return { text: current ? pipeline.definition : query.data?.definition, query };
}

/** Two versions chosen, swapped and compared: a unified line diff of their definitions. */
export function ComparePanel({
  pipeline,
  versions,
  from,
  to,
  onChange,
  onClose,
}: {
  pipeline: PipelineDetail;
  versions: VersionInfo[];
  from: number;
  to: number;
  onChange: (next: { from: number; to: number }) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  const before = useVersionText(pipeline, from);
  const after = useVersionText(pipeline, to);
  const diff = useMemo(
    () => (before.text !== undefined && after.text !== undefined ? lineDiff(before.text, after.text) : null),
    [before.text, after.text],
  );
  // keyboard and screen reader users land on the comparison they asked for
  useEffect(() => heading.current?.focus(), []);

  const picker = (which: 'from' | 'to', value: number) => (
    <TextField
      select
      size="small"
      label={t(`pipelines.versions.${which}`)}
      value={value}
      onChange={(e) => onChange({ from, to, [which]: Number(e.target.value) })}
      sx={{ minWidth: 140 }}
    >
      {versions.map((v) => (
        <MenuItem key={v.version} value={v.version}>
          {v.version === pipeline.version
            ? t('pipelines.versions.labelCurrent', { version: v.version })
            : t('pipelines.versions.label', { version: v.version })}
        </MenuItem>
      ))}
    </TextField>
  );
  const pending = before.text === undefined ? before.query : after.query;
  return (
    <Box
      component="section"
      aria-labelledby="version-compare-title"
      sx={{ mt: 3 }}
      data-testid="version-compare"
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
        <Typography
          id="version-compare-title"
          ref={heading}
          tabIndex={-1}
          variant="subtitle1"
          component="h3"
          sx={{ flex: 1, outline: 'none' }}
        >
          {t('pipelines.versions.compareTitle')}
        </Typography>
        <IconButton onClick={onClose} aria-label={t('pipelines.versions.closeCompare')} size="small">
          <Close fontSize="small" />
        </IconButton>
      </Box>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center', mb: 2 }}>
        {picker('from', from)}
        <IconButton
          onClick={() => onChange({ from: to, to: from })}
          aria-label={t('pipelines.versions.swap')}
          data-testid="swap-versions"
        >
          <SwapHoriz />
        </IconButton>
        {picker('to', to)}
        {diff ? (
          <Typography role="status" sx={{ fontFamily: 'monospace' }}>
            <span aria-hidden data-testid="diff-summary">
              <Box component="span" sx={{ color: 'success.main' }}>{`+${diff.added}`}</Box>{' '}
              <Box component="span" sx={{ color: 'error.main' }}>{`\u2212${diff.removed}`}</Box>
            </span>
            <Box component="span" sx={VISUALLY_HIDDEN}>
              {t('pipelines.versions.summaryLabel', { added: diff.added, removed: diff.removed })}
            </Box>
          </Typography>
        ) : null}
      </Stack>
      {!diff ? (
        <QueryPending query={pending} what={t('pipelines.versions.loadError')} lines={8} />
      ) : diff.added + diff.removed === 0 ? (
        <Typography color="text.secondary" data-testid="diff-identical">
          {t('pipelines.versions.identical')}
        </Typography>
      ) : (
        <DiffView key={`${from}:${to}`} diff={diff} label={t('pipelines.versions.diffLabel', { from, to })} />
      )}
    </Box>
  );
}

const MARKERS = { same: ' ', added: '+', removed: '-' } as const;
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
};

/** A line's colours: green for added, red for removed, readable in the light and the dark theme. */
function lineSx(kind: DiffLine['kind']) {
  return (theme: Theme) => {
    if (kind === 'same') return { display: 'flex', whiteSpace: 'pre' };
    const palette = kind === 'added' ? theme.palette.success : theme.palette.error;
    return {
      display: 'flex',
      whiteSpace: 'pre',
      bgcolor: alpha(palette.main, 0.14),
      color: theme.palette.mode === 'dark' ? palette.light : palette.dark,
    };
  };
}

/**
 * The unified diff, left to right whatever the page's direction, scrolling inside its own box
 * (both ways) so a long line never widens the page; each gap opens to show its lines.
 */
function DiffView({ diff, label }: { diff: LineDiff; label: string }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState<ReadonlySet<number>>(new Set());
  const digits = useMemo(() => {
    let most = 1;
    for (const row of diff.rows)
      for (const line of row.type === 'gap' ? row.lines : [row.line])
        most = Math.max(most, line.oldLine ?? 0, line.newLine ?? 0);
    return String(most).length;
  }, [diff]);
  // line numbers are drawn by CSS: they are not copied with the text, nor part of its content
  const numberSx = {
    flex: 'none',
    width: `${digits + 1}ch`,
    pr: 1,
    textAlign: 'right',
    color: 'text.secondary',
    userSelect: 'none',
    '&::before': { content: 'attr(data-n)' },
  } as const;
  const line = (l: DiffLine, key: string) => (
    <Box key={key} data-testid={`diff-${l.kind}`} sx={lineSx(l.kind)}>
      <Box component="span" aria-hidden data-n={l.oldLine ?? ''} sx={numberSx} />
      <Box component="span" aria-hidden data-n={l.newLine ?? ''} sx={numberSx} />
      <Box component="code" sx={{ font: 'inherit', pr: 2 }}>
        {`${MARKERS[l.kind]} ${l.text}`}
      </Box>
    </Box>
  );
  return (
    <Box
      role="region"
      aria-label={label}
      tabIndex={0}
      dir="ltr"
      data-testid="version-diff"
      sx={{
        overflow: 'auto',
        maxHeight: 560,
        width: '100%',
        minWidth: 0,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        fontFamily: 'monospace',
        fontSize: 13,
        lineHeight: 1.6,
        '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid' },
      }}
    >
      <Box sx={{ display: 'inline-block', minWidth: '100%', py: 0.5 }}>
        {diff.rows.map((row, i) =>
          row.type === 'line' ? (
            line(row.line, String(i))
          ) : opened.has(i) ? (
            row.lines.map((l, k) => line(l, `${i}.${k}`))
          ) : (
            <Box key={i} sx={{ bgcolor: 'action.hover' }}>
              <Button
                size="small"
                data-testid="diff-gap"
                onClick={() => setOpened((s) => new Set(s).add(i))}
                sx={{ fontFamily: 'monospace', textTransform: 'none', minWidth: 0, px: 1 }}
              >
                {t('pipelines.versions.unchanged', { count: row.lines.length })}
              </Button>
            </Box>
          ),
        )}
      </Box>
    </Box>
  );
}
