import type { Database, Statement } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LotwatchError } from '../errors';
import { CacheRepo } from './cacheRepo';

/**
 * A photo that could not be had (404, 429, a broken answer) is not asked for again for this long (ms): with a quota
 * of 100 requests a month, a page that shows the same broken photo on every visit would spend it on failures.
 */
export const PHOTO_RETRY_AFTER_MS = 86_400_000;

const EXT: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/** A cached photo: its bytes and content type. */
export interface Photo {
  bytes: Buffer;
  contentType: string;
  /** True when it came from the disk cache (no request spent). */
  cached: boolean;
}

/**
 * Photos of watched or opened lots, cached on disk by content hash, so a lot's photos can be reviewed offline. Files
 * are `<dir>/<sha256>.<ext>`, written to a temporary name first and renamed, so a crash never leaves a half-written
 * photo; the `photos` table maps each source URL to its file.
 */
export class PhotoCache {
  private readonly get_: Statement<[string], { sha256: string; content_type: string }>;
  private readonly put: Statement<[string, string | null, string, string, number, number]>;
  private readonly failures: CacheRepo;

  constructor(
    db: Database,
    private readonly dir: string,
  ) {
    this.get_ = db.prepare('SELECT sha256, content_type FROM photos WHERE url = ?');
    this.put =
      db.prepare(`INSERT INTO photos (url, lot_key, sha256, content_type, bytes, fetched_at) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT(url) DO UPDATE SET sha256 = excluded.sha256, content_type = excluded.content_type,
      bytes = excluded.bytes, fetched_at = excluded.fetched_at, lot_key = COALESCE(excluded.lot_key, photos.lot_key)`);
    // Failures live in the key/value cache (`photo-failed:<url>`), so the photo index keeps only real files.
    this.failures = new CacheRepo(db);
  }

  /**
   * When `url` last failed (ms) if that was less than PHOTO_RETRY_AFTER_MS before `now`, with the error's code;
   * else null (never failed, or long enough ago to try again).
   */
  recentFailure(url: string, now: number): { at: number; code: string } | null {
    const r = this.failures.get(`photo-failed:${url}`);
    if (!r || now - r.updated_at >= PHOTO_RETRY_AFTER_MS || r.updated_at > now) return null;
    return { at: r.updated_at, code: r.value };
  }

  /** Remembers that fetching `url` failed at `now` (ms) with error code `code`. */
  recordFailure(url: string, code: string, now: number): void {
    this.failures.put(`photo-failed:${url}`, code, now);
  }

  private file(sha: string, contentType: string): string {
    return join(this.dir, `${sha}.${EXT[contentType] ?? 'img'}`);
  }

  /** The cached photo of `url`, or null. */
  read(url: string): Photo | null {
    const r = this.get_.get(url);
    if (!r) return null;
    const f = this.file(r.sha256, r.content_type);
    if (!existsSync(f)) return null;
    return { bytes: readFileSync(f), contentType: r.content_type, cached: true };
  }

  /** Stores a fetched photo; identical images share one file. */
  write(url: string, lotKey: string | null, bytes: Uint8Array, contentType: string, now: number): Photo {
    if (!(contentType in EXT)) {
      throw new LotwatchError(
        'bad_response',
        `The image proxy sent ${contentType}, which is not a JPEG, PNG or WebP image.`,
      );
    }
    mkdirSync(this.dir, { recursive: true });
    const buf = Buffer.from(bytes);
    const sha = createHash('sha256').update(buf).digest('hex');
    const f = this.file(sha, contentType);
    if (!existsSync(f)) {
      const tmp = `${f}.${process.pid}.tmp`;
      writeFileSync(tmp, buf);
      renameSync(tmp, f);
    }
    this.put.run(url, lotKey, sha, contentType, buf.length, now);
    this.failures.delete(`photo-failed:${url}`);
    return { bytes: buf, contentType, cached: false };
  }
}
