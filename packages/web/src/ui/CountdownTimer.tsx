import Typography, { type TypographyProps } from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COUNTDOWN_DEFAULT_SECONDS } from '@slipway/contracts';

/** mm:ss for a number of whole seconds. */
export function formatCountdown(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

export interface CountdownTimerProps extends Omit<TypographyProps, 'children'> {
  /** Where to count down from; 60 seconds by default (spec §9). */
  seconds?: number;
  onComplete?: () => void;
}

/** Shows minutes and seconds counting down to zero, then calls onComplete once. */
export function CountdownTimer({
  seconds = COUNTDOWN_DEFAULT_SECONDS,
  onComplete,
  ...rest
}: CountdownTimerProps) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(seconds);
  const done = useRef(onComplete);
  done.current = onComplete;
  useEffect(() => {
    setLeft(seconds);
    if (seconds <= 0) return;
    const endsAt = Date.now() + seconds * 1000;
    const timer = setInterval(() => {
      const remaining = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));
      setLeft(remaining);
      if (remaining === 0) {
        clearInterval(timer);
        done.current?.();
      }
    }, 250);
    return () => clearInterval(timer);
  }, [seconds]);
  return (
    <Typography component="span" role="timer" aria-label={t('countdown.label')} {...rest}>
      {formatCountdown(left)}
    </Typography>
  );
}
