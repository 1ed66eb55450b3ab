import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors.ts';
import { changeLanguage } from '../i18n/i18n.ts';
import { FlowErrorAlert } from '../routes/flow/FlowErrorAlert.tsx';
import { ApiErrorAlert } from './ApiErrorAlert.tsx';

const unavailable = new ApiError(503, 1294, 'Passgate is temporarily unavailable, please try again');

function renderAt(element: React.ReactNode) {
  return render(
    <MemoryRouter initialEntries={['/login']}>
      <Routes>
        <Route path="/login" element={<main>{element}</main>} />
        <Route path="/error" element={<h1>Error screen</h1>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('a database or Redis that is briefly away (503, code 1294)', () => {
  it.each([
    ['ApiErrorAlert', <ApiErrorAlert key="a" error={unavailable} />],
    ['FlowErrorAlert', <FlowErrorAlert key="f" error={unavailable} />],
  ])('%s says so where the user is instead of going to the Error screen', async (_name, element) => {
    await changeLanguage('en');
    const { unmount } = renderAt(element);
    expect(await screen.findByRole('alert')).toHaveTextContent('Passgate is temporarily unavailable, please try again');
    expect(screen.queryByRole('heading', { name: 'Error screen' })).not.toBeInTheDocument();
    unmount();

    await changeLanguage('vi');
    renderAt(element);
    expect(await screen.findByRole('alert')).toHaveTextContent('Passgate tạm thời không khả dụng, vui lòng thử lại');
    await changeLanguage('en');
  });

  it('an unexpected 500 still goes to the Error screen', async () => {
    await changeLanguage('en');
    renderAt(<ApiErrorAlert error={new ApiError(500, 1500, 'Internal Server Error')} />);
    expect(await screen.findByRole('heading', { name: 'Error screen' })).toBeInTheDocument();
  });
});
