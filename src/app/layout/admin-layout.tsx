// Admin shell of SPEC §2: sidebar with the menu groups, a footer with the user and 'Sair'.
// Ctrl/Cmd+B toggles it (state in a 7-day cookie); below 768 px it is a sheet.
import { useCallback, useEffect, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import {
  BarChart3,
  BookOpen,
  Building2,
  ClipboardList,
  Eye,
  FileText,
  GraduationCap,
  Handshake,
  History,
  LayoutDashboard,
  LogIn,
  LogOut,
  Megaphone,
  Menu,
  MessageSquare,
  Palette,
  PanelLeft,
  Receipt,
  Repeat,
  Settings,
  ShieldAlert,
  ShoppingCart,
  TicketPercent,
  User,
  Users,
  UsersRound,
  type LucideIcon,
} from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';
import { useAdminCommentCounts } from '@/features/discussions/api/admin-hooks';
import { useSession } from '@/platform/session';
import { cn } from '@/utils/cn';
import { readSidebarCookie, writeSidebarCookie } from './sidebar-state';
import { useIsMobile } from './use-is-mobile';
import { useSignOutAndLeave } from './use-sign-out';
// The admin area's utilities: a stylesheet of this chunk, never in the student's download (docs/styles.md).
import '@/styles/admin.css';

interface MenuItem {
  title: string;
  to: string;
  icon: LucideIcon;
  end?: boolean;
  /** Only the super admin has this screen (SPEC §6). */
  superAdminOnly?: boolean;
  /** Only a school's admins and the super admin (Registro de atividades, issue 44). */
  adminOnly?: boolean;
  /** A count beside the title: Comentários shows the school's unanswered questions (issue 26). */
  badge?: 'unansweredComments';
}

const MENU: { label?: string; items: MenuItem[] }[] = [
  { items: [{ title: 'Visão do Aluno', to: '/', icon: Eye, end: true }] },
  {
    label: 'Cadastros',
    items: [
      { title: 'Cursos', to: '/admin/courses', icon: BookOpen },
      { title: 'Materiais', to: '/admin/materials', icon: FileText },
      { title: 'Clientes', to: '/admin/clients', icon: Building2, superAdminOnly: true },
      { title: 'Alunos', to: '/admin/students', icon: Users },
      { title: 'Matrículas', to: '/admin/enrollments', icon: ClipboardList },
      { title: 'Turmas', to: '/admin/turmas', icon: UsersRound },
      { title: 'Anúncios', to: '/admin/announcements', icon: Megaphone },
      { title: 'Comentários', to: '/admin/comments', icon: MessageSquare, badge: 'unansweredComments' },
      { title: 'Cupons', to: '/admin/coupons', icon: TicketPercent },
      { title: 'Planos', to: '/admin/plans', icon: Repeat },
    ],
  },
  {
    label: 'Análises',
    items: [
      { title: 'Dashboard', to: '/admin', icon: LayoutDashboard, end: true },
      { title: 'Relatórios', to: '/admin/reports', icon: BarChart3 },
      { title: 'Compartilhamento suspeito', to: '/admin/compartilhamento', icon: ShieldAlert },
      { title: 'Vendas', to: '/admin/sales', icon: Receipt },
      { title: 'Recuperação', to: '/admin/recovery', icon: ShoppingCart },
      { title: 'Afiliados', to: '/admin/affiliates', icon: Handshake },
      { title: 'Registro de atividades', to: '/admin/audit', icon: History, adminOnly: true },
    ],
  },
  {
    label: 'Configurações',
    items: [
      { title: 'Área de Membros', to: '/admin/member-area', icon: Palette },
      { title: 'Tela de Login', to: '/admin/login-settings', icon: LogIn },
      { title: 'Perfil', to: '/profile', icon: User },
      { title: 'Configurações', to: '/admin/settings', icon: Settings },
    ],
  },
];

function SidebarNav({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { profile, user, school, roles } = useSession();
  const isSuperAdmin = roles.some((r) => r.role === 'SUPER_ADMIN');
  const isAdmin = isSuperAdmin || roles.some((r) => r.role === 'SCHOOL_ADMIN');
  const leave = useSignOutAndLeave();
  const commentCounts = useAdminCommentCounts(school?.id);
  const name = profile?.name || user?.email || '';
  const badgeOf = (item: MenuItem) => (item.badge === 'unansweredComments' ? (commentCounts.data?.unanswered ?? 0) : 0);
  return (
    <div className="flex h-full flex-col">
      <div className={cn('flex h-16 items-center gap-2 border-b border-border px-3', collapsed && 'justify-center px-0')}>
        <span aria-hidden="true" className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-gradient-to-br from-primary to-secondary text-white">
          <GraduationCap className="size-4" />
        </span>
        {!collapsed && (
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold">{school?.member_area_name || school?.name || 'Área de Membros'}</p>
            <p className="text-xs text-muted-foreground">Painel administrativo</p>
          </div>
        )}
      </div>
      <nav aria-label="Menu administrativo" className="flex-1 overflow-y-auto px-2 py-3">
        {MENU.map((group, i) => (
          <div key={group.label ?? i} className="mb-3">
            {group.label && !collapsed && <p className="px-2 pb-1 text-xs font-medium tracking-wide text-muted-foreground uppercase">{group.label}</p>}
            <ul className="grid gap-0.5">
              {group.items.filter((item) => (!item.superAdminOnly || isSuperAdmin) && (!item.adminOnly || isAdmin)).map((item) => {
                const count = badgeOf(item);
                // "Comentários, 3 sem resposta": the count is part of the link's name; the badge only shows it.
                const label = count > 0 ? `${item.title}, ${count.toLocaleString('pt-BR')} sem resposta` : collapsed ? item.title : undefined;
                return (
                  <li key={item.to}>
                    <NavLink
                      to={item.to}
                      end={item.end}
                      onClick={onNavigate}
                      title={collapsed ? (label ?? item.title) : undefined}
                      aria-label={label}
                      className={({ isActive }) =>
                        cn(
                          'flex h-9 items-center gap-2.5 rounded-lg px-2 text-sm text-slate-700 transition-colors hover:bg-muted hover:text-foreground',
                          collapsed && 'justify-center px-0',
                          isActive && 'bg-primary/10 font-medium text-primary hover:bg-primary/15 hover:text-primary',
                        )
                      }
                    >
                      <span className="relative flex shrink-0">
                        <item.icon className="size-4" aria-hidden="true" />
                        {collapsed && count > 0 && <span aria-hidden="true" className="absolute -top-1 -right-1 size-2 rounded-full bg-red-600" />}
                      </span>
                      {!collapsed && <span className="truncate">{item.title}</span>}
                      {!collapsed && count > 0 && (
                        <span aria-hidden="true" className="ml-auto rounded-full bg-red-600 px-1.5 py-0.5 text-xs leading-none font-semibold text-white tabular-nums">
                          {count > 99 ? '99+' : count.toLocaleString('pt-BR')}
                        </span>
                      )}
                    </NavLink>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </nav>
      <div className={cn('flex items-center gap-2 border-t border-border p-3', collapsed && 'flex-col px-1')}>
        <Avatar name={name} src={profile?.avatar_url} className="size-8" />
        {!collapsed && (
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium">{name}</p>
            <p className="text-xs text-muted-foreground">Administrador</p>
          </div>
        )}
        <Button variant="ghost" size={collapsed ? 'icon' : 'sm'} onClick={() => void leave()} aria-label="Sair">
          <LogOut aria-hidden="true" />
          {!collapsed && 'Sair'}
        </Button>
      </div>
    </div>
  );
}

export default function AdminLayout() {
  const isMobile = useIsMobile();
  const [open, setOpen] = useState(readSidebarCookie);
  const [mobileOpen, setMobileOpen] = useState(false);
  const location = useLocation();

  const toggle = useCallback(() => {
    if (isMobile) {
      setMobileOpen((o) => !o);
      return;
    }
    setOpen((o) => {
      writeSidebarCookie(!o);
      return !o;
    });
  }, [isMobile]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'b') {
        e.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);

  return (
    <div className="flex min-h-dvh bg-background">
      {!isMobile && (
        <aside
          className="sticky top-0 h-dvh shrink-0 border-r border-border bg-white transition-[width] duration-200"
          style={{ width: open ? '16rem' : '3rem' }}
          data-state={open ? 'expanded' : 'collapsed'}
        >
          <SidebarNav collapsed={!open} />
        </aside>
      )}
      {isMobile && (
        <Sheet open={mobileOpen} onOpenChange={setMobileOpen}>
          <SheetContent className="w-[18rem]">
            <SheetTitle className="sr-only">Menu</SheetTitle>
            <SheetDescription className="sr-only">Navegação do painel administrativo</SheetDescription>
            <SidebarNav collapsed={false} onNavigate={() => setMobileOpen(false)} />
          </SheetContent>
        </Sheet>
      )}
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-border bg-white/90 px-3 backdrop-blur">
          <Button variant="ghost" size="icon" onClick={toggle} aria-label="Alternar menu lateral" title="Alternar menu (Ctrl+B)">
            {isMobile ? <Menu aria-hidden="true" /> : <PanelLeft aria-hidden="true" />}
          </Button>
          <span className="text-sm text-muted-foreground">Administração</span>
          <Link to="/" className="ml-auto text-sm font-medium text-primary hover:underline">
            Visão do Aluno
          </Link>
        </header>
        <main key={location.pathname} className="flex-1">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
