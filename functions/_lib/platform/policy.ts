/** The privacy policy's date in force, for the consent record (dist/privacy-policy-version.json, written by the build). */
import { readBuildJson } from './build-files';

/** YYYY-MM-DD, or undefined when the build file cannot be read (the subscription is kept all the same). */
export async function policyDate(): Promise<string | undefined> {
  try {
    const value = await readBuildJson('privacy-policy-version.json');
    const date = typeof value === 'object' && value !== null && 'updatedDate' in value ? value.updatedDate : undefined;
    return typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : undefined;
  } catch {
    return undefined;
  }
}
