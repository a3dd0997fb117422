import { act, fireEvent, screen } from '@testing-library/react';
import { ErrorBoundary } from 'react-error-boundary';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../test/render';
import { AccessDenied } from './AccessDenied';
import { Button } from './Button';
import { CountdownTimer, formatCountdown } from './CountdownTimer';
import { ErrorFallback } from './ErrorFallback';
import { LoadingPage } from './LoadingPage';
import { describeRouteError } from './RouterErrorFallback';
import { Skeleton } from './Skeleton';
import { Label } from './Label';

afterEach(() => vi.useRealTimers());

describe('loading page', () => {
  it('rotates its title every 3 seconds', () => {
    vi.useFakeTimers();
    renderWithI18n(<LoadingPage />);
    const first = screen.getByTestId('loading-page').textContent;
    act(() => vi.advanceTimersByTime(2999));
    expect(screen.getByTestId('loading-page').textContent).toBe(first);
    act(() => vi.advanceTimersByTime(1));
    const second = screen.getByTestId('loading-page').textContent;
    expect(second).not.toBe(first);
    act(() => vi.advanceTimersByTime(3000));
    expect(screen.getByTestId('loading-page').textContent).not.toBe(second);
  });
});

describe('countdown timer', () => {
  it('formats minutes and seconds', () => {
    expect(formatCountdown(60)).toBe('01:00');
    expect(formatCountdown(125)).toBe('02:05');
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(-4)).toBe('00:00');
  });

  it('counts down from 60 seconds by default and calls onComplete once', () => {
    vi.useFakeTimers();
    const done = vi.fn();
    renderWithI18n(<CountdownTimer onComplete={done} />);
    expect(screen.getByRole('timer').textContent).toBe('01:00');
    act(() => vi.advanceTimersByTime(15_000));
    expect(screen.getByRole('timer').textContent).toBe('00:45');
    act(() => vi.advanceTimersByTime(45_000));
    expect(screen.getByRole('timer').textContent).toBe('00:00');
    act(() => vi.advanceTimersByTime(5_000));
    expect(done).toHaveBeenCalledTimes(1);
  });
});

describe('error fallback', () => {
  function Bomb({ explode }: { explode: boolean }) {
    if (explode) throw new Error('the pipeline list exploded');
    return <p>recovered</p>;
  }
  function Harness() {
    const [explode, setExplode] = useState(true);
    return (
      <ErrorBoundary FallbackComponent={ErrorFallback} onReset={() => setExplode(false)}>
        <Bomb explode={explode} />
      </ErrorBoundary>
    );
  }

  it('shows "Something went wrong:" with the message, and "Try again" recovers', () => {
    const original = console.error;
    console.error = () => undefined;
    try {
      renderWithI18n(<Harness />);
      const alert = screen.getByTestId('error-fallback');
      expect(alert.textContent).toContain('Something went wrong:');
      expect(alert.textContent).toContain('the pipeline list exploded');
      fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
      expect(screen.getByText('recovered')).toBeTruthy();
    } finally {
      console.error = original;
    }
  });
});

describe('router error description', () => {
  it('shows status and status text for a route error response', () => {
    const response = { status: 404, statusText: 'Not Found', internal: true, data: null };
    expect(describeRouteError(response)).toEqual({ heading: '404 Not Found' });
  });
  it('shows message and stack for a thrown error', () => {
    const e = new Error('loader failed');
    const d = describeRouteError(e);
    expect(d.heading).toBe('loader failed');
    expect(d.detail).toContain('loader failed');
  });
});

describe('shared pieces', () => {
  it('access denied reads the spec wording', () => {
    renderWithI18n(<AccessDenied />);
    expect(screen.getByText("You don't have permission to view this page")).toBeTruthy();
    expect(screen.getByText('Contact admin to get the access')).toBeTruthy();
  });
  it('a loading button is disabled and busy', () => {
    renderWithI18n(<Button loading>Save</Button>);
    const b = screen.getByRole('button');
    expect(b.hasAttribute('disabled')).toBe(true);
    expect(b.getAttribute('aria-busy')).toBe('true');
  });
  it('a label carries its icons and points at its control', () => {
    renderWithI18n(
      <Label htmlFor="name" startIcon={<span data-testid="s" />} endIcon={<span data-testid="e" />} required>
        Name
      </Label>,
    );
    expect(screen.getByText('Name').closest('label')?.getAttribute('for')).toBe('name');
    expect(screen.getByTestId('s')).toBeTruthy();
    expect(screen.getByTestId('e')).toBeTruthy();
  });
  it('a skeleton stands in for the number of lines asked', () => {
    renderWithI18n(<Skeleton lines={3} />);
    expect(screen.getByTestId('skeleton').children).toHaveLength(3);
  });
});
