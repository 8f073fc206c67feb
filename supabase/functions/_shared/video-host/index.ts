// The platform's video host, from the function secrets: VIDEO_HOST=bunny (with the BUNNY_* secrets, see
// bunny.ts and docs/video.md) or unset, when schools keep uploading lesson videos to Storage as before.
import { BunnyStream, bunnyConfigFromEnv } from './bunny.ts';
import type { VideoHost } from './host.ts';

export function videoHost(get: (name: string) => string | undefined = (name) => Deno.env.get(name)): VideoHost | null {
  const kind = get('VIDEO_HOST')?.trim();
  if (!kind) return null;
  if (kind === 'bunny') return new BunnyStream(bunnyConfigFromEnv(get));
  throw new Error(`VIDEO_HOST=${kind}: unknown video host (known: bunny)`);
}
