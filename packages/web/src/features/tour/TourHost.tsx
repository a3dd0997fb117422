import Close from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { grey } from '@mui/material/colors';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatch } from 'react-router';
import {
  isTourFinishedStatus,
  isTourSuccessStatus,
  TOUR_KEY_CODES,
  TOUR_POPOVER,
  TOUR_TIMING,
} from '@slipway/contracts';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { usePermission } from '../access/usePermission';
import { onboardingUpdated } from '../onboarding/onboarding-slice';
import { onboardingV2Updated } from '../onboarding/onboarding-v2-slice';
import { useRunClustersQuery, useRunQuery } from '../pipelines/api';
import { isAvailable, TOUR_STEPS, type TourStep } from './steps';
import { useTourMachine } from './useTourMachine';
import { useTourPresence, useTourTarget } from './useTourTarget';

/** The steps that have a screen in Slipway: one dot each. */
const DOTS = TOUR_STEPS.map((s, i) => ({ s, i })).filter(({ s }) => isAvailable(s));

/** Keyboard codes (spec §9), for browsers that leave keyCode 0. */
const KEY_CODES_BY_NAME: Record<string, number> = {
  Escape: TOUR_KEY_CODES.escape,
  ArrowLeft: TOUR_KEY_CODES.left,
  ArrowRight: TOUR_KEY_CODES.right,
};

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

/** The card sits 8 px off its anchor, flips where there is no room, and stays inside the screen. */
const POPPER_MODIFIERS = [
  { name: 'offset', options: { offset: [0, 8] } },
  { name: 'flip', options: { fallbackPlacements: ['right-start', 'bottom', 'top'] } },
  { name: 'preventOverflow', options: { padding: 8, altAxis: true, tether: false } },
];

/** Whether a cluster is attached (the spec's "virtual cluster present"): null while unknown. */
function useClusterPresent(active: boolean): boolean | null {
  const dispatch = useAppDispatch();
  const { allowed, isLoading: checking } = usePermission('clusters:view');
  const { data, isError } = useRunClustersQuery(undefined, { skip: !active || checking || !allowed });
  let present: boolean | null = null;
  // Someone who may not see clusters cannot attach one either: the tour passes the attach modal.
  if (!checking && !allowed) present = true;
  else if (isError) present = true;
  else if (data) present = data.rows.length > 0;
  useEffect(() => {
    if (present !== null) dispatch(onboardingV2Updated({ isVClusterPresent: present }));
  }, [present, dispatch]);
  return present;
}

/**
 * Calls `onAction` once when the user clicks (or presses on) the element `data-tour="<target>"`.
 * A press on it counts as well as a click (a select opens its menu on press, and its click lands
 * elsewhere), but the step moves on only once the press is over: a card for the next step placed
 * under the pointer between press and release would take the release, and the click would never
 * reach the button (the success page's "Proceed to pipeline run" did not navigate).
 */
function useClickAction(target: string | null, onAction: () => void, delayMs = 0) {
  const latest = useRef(onAction);
  latest.current = onAction;
  useEffect(() => {
    if (!target) return;
    let pressed = false;
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onTarget = (e: Event) => !!(e.target as Element | null)?.closest?.(`[data-tour="${target}"]`);
    const act = () => {
      if (done) return;
      done = true;
      // after the event's own handlers (the click's navigation) have run
      timer = setTimeout(() => latest.current(), delayMs);
    };
    const onPress = (e: Event) => {
      if (onTarget(e)) pressed = true;
    };
    const onRelease = () => {
      if (pressed) act();
    };
    const onClick = (e: Event) => {
      if (pressed || onTarget(e)) act();
    };
    document.addEventListener('pointerdown', onPress, true);
    document.addEventListener('pointerup', onRelease, true);
    document.addEventListener('pointercancel', onRelease, true);
    document.addEventListener('click', onClick, true);
    return () => {
      document.removeEventListener('pointerdown', onPress, true);
      document.removeEventListener('pointerup', onRelease, true);
      document.removeEventListener('pointercancel', onRelease, true);
      document.removeEventListener('click', onClick, true);
      clearTimeout(timer);
    };
  }, [target, delayMs]);
}

/** The final canvas step: the run on screen reaching a finished status (spec §4), polled each second. */
function useRunFinished(active: boolean, onFinished: () => void) {
  const dispatch = useAppDispatch();
  const match = useMatch('/pipelines/runs/:runId');
  const runId = match?.params.runId ?? '';
  const { data: run } = useRunQuery(runId, {
    skip: !active || !runId,
    pollingInterval: TOUR_TIMING.pipelineFinishedPollMs,
  });
  const latest = useRef(onFinished);
  latest.current = onFinished;
  useEffect(() => {
    if (!active || !run || !isTourFinishedStatus(run.status)) return;
    // only success marks the pipeline completed
    if (isTourSuccessStatus(run.status)) {
      dispatch(
        onboardingUpdated({ pipelineId: run.pipelineId, pipeline: { id: run.pipelineId, completed: true } }),
      );
    }
    latest.current();
  }, [active, run, dispatch]);
}

/**
 * The guided first-run tour (spec §2, §4): a popover beside the element each step explains, with
 * dots, Previous, Next, close and "Skip tour"; Escape closes it and the arrow keys move.
 */
export function TourHost() {
  const { t } = useTranslation();
  const titleId = useId();
  const isTourOpen = useAppSelector((s) => s.onboardingV2.isTourOpen);
  const clusterPresent = useClusterPresent(isTourOpen);
  const tour = useTourMachine(clusterPresent);
  // the handlers change with every step; listeners and timers read the latest ones
  const latest = useRef(tour);
  latest.current = tour;
  const { step, index, open } = tour;
  const found = useTourTarget(step.targets, step.pollMs, open);
  const onOwnScreen = found?.rank === 0;
  const advance = step.advance;

  useClickAction(
    open && advance?.kind === 'click' ? advance.target : null,
    () => latest.current.advance(),
    step.id === 'buildTaskLog' ? TOUR_TIMING.afterBuildTaskClickMs : 0,
  );
  const nextIsThere = useTourPresence(
    open && advance?.kind === 'present' ? advance.target : null,
    step.pollMs,
  );
  useEffect(() => {
    if (nextIsThere) latest.current.advance();
    // once per appearance
  }, [nextIsThere]);
  useEffect(() => {
    if (!open || advance?.kind !== 'auto' || !onOwnScreen) return;
    const timer = setTimeout(() => latest.current.advance(), TOUR_TIMING.autoAdvanceMs);
    return () => clearTimeout(timer);
  }, [open, advance?.kind, onOwnScreen, index]);
  useRunFinished(open && advance?.kind === 'finished' && onOwnScreen, () => latest.current.advance());

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      const code = e.keyCode || KEY_CODES_BY_NAME[e.key];
      const now = latest.current;
      if (code === TOUR_KEY_CODES.escape) now.close();
      else if (isTyping(e.target)) return;
      else if (code === TOUR_KEY_CODES.left && now.canGoBack) now.previous();
      else if (code === TOUR_KEY_CODES.right) now.advance();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  // bring the element the step explains into view (e.g. a sidebar entry below the fold)
  const anchor = open ? found?.element : undefined;
  useEffect(() => {
    if (anchor && typeof anchor.scrollIntoView === 'function') anchor.scrollIntoView({ block: 'nearest' });
  }, [anchor]);

  if (!open || !found) return null;
  return (
    <Popper
      // A fresh card for each step. When the step's anchor changes (the screen it points at has
      // loaded) the card stays and the popper is placed anew: a card remounted under the pointer
      // would lose a click that was on its way.
      key={index}
      open
      anchorEl={found.element}
      placement={found.rank === 0 ? (step.placement ?? 'bottom') : 'bottom'}
      modifiers={POPPER_MODIFIERS}
      sx={{ zIndex: (z) => z.zIndex.tooltip + 100 }}
    >
      <TourCard
        step={step}
        index={index}
        titleId={titleId}
        leading={!onOwnScreen}
        canGoBack={tour.canGoBack}
        onPrevious={tour.previous}
        onNext={tour.advance}
        onClose={tour.close}
        onSkip={tour.skip}
        label={t}
      />
    </Popper>
  );
}

function TourCard(props: {
  step: TourStep;
  index: number;
  titleId: string;
  /** pointing at the way to the step's screen, not at the screen itself */
  leading: boolean;
  canGoBack: boolean;
  onPrevious: () => void;
  onNext: () => void;
  onClose: () => void;
  onSkip: () => void;
  label: (key: string, options?: Record<string, unknown>) => string;
}) {
  const { step, index, titleId, label: t } = props;
  const position = DOTS.findIndex((d) => d.i === index);
  const paper = useRef<HTMLDivElement>(null);
  // A dialog opened while the tour shows hides the page's other portals from assistive technology
  // (aria-hidden); the tour explains that dialog, so it stays reachable.
  useEffect(() => {
    const root = paper.current?.parentElement;
    if (!root) return;
    const reveal = () => {
      if (root.hasAttribute('aria-hidden')) root.removeAttribute('aria-hidden');
    };
    reveal();
    const observer = new MutationObserver(reveal);
    observer.observe(root, { attributes: true, attributeFilter: ['aria-hidden'] });
    return () => observer.disconnect();
  }, []);
  return (
    <Paper
      ref={paper}
      role="dialog"
      aria-labelledby={titleId}
      elevation={8}
      data-testid="tour-popover"
      data-step={index}
      sx={{ maxWidth: TOUR_POPOVER.maxWidth, p: `${TOUR_POPOVER.padding}px` }}
    >
      <Stack direction="row" alignItems="flex-start" spacing={1}>
        <Typography id={titleId} variant="subtitle1" component="h2" sx={{ flex: 1, fontWeight: 600 }}>
          {t(`tour.steps.${step.id}.title`)}
        </Typography>
        <IconButton size="small" aria-label={t('tour.close')} onClick={props.onClose}>
          <Close fontSize="small" />
        </IconButton>
      </Stack>
      <Typography variant="body2" sx={{ my: 1 }}>
        {t(`tour.steps.${step.id}.body`)}
      </Typography>
      {props.leading ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="tour-leading">
          {t(`tour.steps.${step.id}.lead`, { defaultValue: t('tour.lead') })}
        </Typography>
      ) : null}
      <Box
        role="img"
        aria-label={t('tour.progress', { current: position + 1, total: DOTS.length })}
        sx={{ display: 'flex', gap: 0.75, justifyContent: 'center', my: 1 }}
      >
        {DOTS.map((d) => (
          <Box
            key={d.s.id}
            data-testid="tour-dot"
            data-active={d.i === index ? 'true' : 'false'}
            sx={{
              width: 8,
              height: 8,
              borderRadius: '50%',
              bgcolor: d.i === index ? 'primary.main' : grey[400],
            }}
          />
        ))}
      </Box>
      <Stack direction="row" spacing={1} alignItems="center">
        <Button size="small" color="inherit" onClick={props.onSkip}>
          {t('tour.skip')}
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button size="small" onClick={props.onPrevious} disabled={!props.canGoBack}>
          {t('tour.previous')}
        </Button>
        <Button size="small" variant="contained" onClick={props.onNext}>
          {t('tour.next')}
        </Button>
      </Stack>
    </Paper>
  );
}
