import MuiSkeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';

export interface SkeletonProps {
  /** How many text lines to stand in for. */
  lines?: number;
  variant?: 'text' | 'rectangular' | 'rounded' | 'circular';
  width?: number | string;
  height?: number | string;
}

/** A placeholder shaped like the content that is loading. */
export function Skeleton({ lines = 1, variant = 'text', width, height }: SkeletonProps) {
  return (
    <Stack spacing={0.5} aria-hidden data-testid="skeleton">
      {Array.from({ length: lines }, (_, i) => (
        <MuiSkeleton
          key={i}
          variant={variant}
          width={width ?? (lines > 1 && i === lines - 1 ? '60%' : '100%')}
          height={height}
        />
      ))}
    </Stack>
  );
}
