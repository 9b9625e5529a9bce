/**
 * The icons browsers, phones and link previewers ask for, drawn from the one logo at build time
 * (src/assets/logo.svg): a favicon.ico for the oldest askers, PNGs for home screens and the web
 * app manifest. Rasterised with sharp, the library Astro's own image service uses.
 */
import sharp from 'sharp';

export interface PngIcon {
  /** File name at the site's root, without `.png`. */
  name: string;
  size: number;
  /** Drawn on this colour rather than transparent: iOS fills transparency with black. */
  background?: string;
  /** Share of the width left empty on each side (a maskable icon keeps its logo in the safe zone). */
  inset?: number;
  /** What the manifest says it is for; absent for icons the manifest does not list. */
  purpose?: 'any' | 'maskable';
}

/** The PNG icons, each served at /<name>.png. */
export function pngIcons(background: string): PngIcon[] {
  return [
    // iOS asks for /apple-touch-icon.png by itself and rounds the corners itself: a full square.
    { name: 'apple-touch-icon', size: 180, background, inset: 0.1 },
    { name: 'icon-192', size: 192, purpose: 'any' },
    { name: 'icon-512', size: 512, purpose: 'any' },
    // Android crops maskable icons to a circle or squircle within the middle 80 %.
    { name: 'icon-maskable-512', size: 512, background, inset: 0.15, purpose: 'maskable' },
  ];
}

/** Sizes inside favicon.ico: the tab, the taskbar and desktop shortcuts. */
export const ICO_SIZES = [16, 32, 48];

/** The logo as a square PNG `size` pixels wide, drawn from its vector at that size (never scaled up). */
export async function logoPng(
  svg: string,
  { size, background, inset = 0 }: Pick<PngIcon, 'size' | 'background' | 'inset'>,
): Promise<Buffer> {
  const inner = Math.round(size * (1 - 2 * inset));
  const source = Buffer.from(svg);
  const { width = inner } = await sharp(source).metadata();
  // An SVG renders at 72 dpi by default: its own width in pixels. The density draws it at `inner`.
  const drawn = await sharp(source, { density: (72 * inner) / width })
    .resize(inner, inner)
    .png()
    .toBuffer();
  const margin = Math.floor((size - inner) / 2);
  const image = background ? sharp(drawn).flatten({ background }) : sharp(drawn);
  return image
    .extend({
      top: margin,
      left: margin,
      bottom: size - inner - margin,
      right: size - inner - margin,
      background: background ?? { r: 0, g: 0, b: 0, alpha: 0 },
    })
    .png()
    .toBuffer();
}

/**
 * An ICO file holding PNG images (read by every browser since Internet Explorer 9): a 6-byte
 * header, a 16-byte directory entry per image, then the images.
 */
export function icoFile(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // width; 0 means 256
    entry.writeUInt8(size >= 256 ? 0 : size, 1); // height
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map(({ png }) => png)]);
}
