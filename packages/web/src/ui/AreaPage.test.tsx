import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithI18n } from '../test/render';
import { AreaPage } from './AreaPage';

describe('area page', () => {
  it('names its area, titles it with an h1 and shows its actions and content', () => {
    renderWithI18n(
      <AreaPage id="widgets" title="Widgets" actions={<button type="button">New widget</button>}>
        <p>the list</p>
      </AreaPage>,
    );
    const area = screen.getByTestId('area-widgets');
    expect(within(area).getByRole('heading', { level: 1, name: 'Widgets' })).toBeTruthy();
    expect(within(area).getByRole('button', { name: 'New widget' })).toBeTruthy();
    expect(within(area).getByText('the list')).toBeTruthy();
  });

  it('has no actions unless given some', () => {
    renderWithI18n(
      <AreaPage id="bare" title="Bare">
        <p>content</p>
      </AreaPage>,
    );
    expect(within(screen.getByTestId('area-bare')).queryByRole('button')).toBeNull();
  });
});
