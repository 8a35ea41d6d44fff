// @vitest-environment jsdom
import { inputsOf, installFake, render } from './views/fakeApi';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Photo } from '../../src/renderer/src/components/Photo';
import { errResult } from './fakeBridge';

afterEach(cleanup);

describe('Photo', () => {
  it('shows a placeholder for a photo that failed, and does not ask again when shown again', async () => {
    const fake = installFake({ handlers: { 'photos.get': () => errResult('not_found', 'Not found.') } });
    const url = 'https://cs.copart.com/v1/AUTH_svc.pdoc00001/x/broken_thb.jpg';
    render(<Photo url={url} alt="2019 TESLA MODEL 3" />);
    expect(await screen.findByText('No photo')).toBeTruthy();
    expect(screen.getByRole('img', { name: '2019 TESLA MODEL 3 (no photo)' })).toBeTruthy();
    cleanup();
    render(<Photo url={url} alt="2019 TESLA MODEL 3" />);
    expect(screen.getByText('No photo')).toBeTruthy();
    expect(inputsOf(fake, 'photos.get')).toHaveLength(1);
  });
});
