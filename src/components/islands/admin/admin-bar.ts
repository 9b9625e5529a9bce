/**
 * The place in the admin page's bar (src/layouts/AdminLayout.astro) where the dashboard puts its
 * section menu and Logout once the owner is logged in: one bar for the site's name, the link to
 * the site, the menu and Logout.
 */
export const ADMIN_BAR_TOOLS = 'admin-bar-tools';
