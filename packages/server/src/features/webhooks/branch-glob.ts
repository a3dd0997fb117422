/**
 * A branch filter: `*` matches any run of characters except '/', `**` any run including '/',
 * `?` one character except '/'. The pattern `*` alone matches every branch.
 */
export function branchMatches(glob: string, branch: string): boolean {
  if (glob === '*' || glob === '**') return true;
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`).test(branch);
}
