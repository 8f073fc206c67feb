// Pure rules of the content editor: the order after a drag, the next order_index (SPEC §4), the
// video URL kinds and minutes ↔ seconds.

export interface OutlineItem {
  id: string;
}
export interface OutlineModule<L extends OutlineItem = OutlineItem> {
  id: string;
  lessons: L[];
}

/** Moves module `activeId` to the place of module `overId`. */
export function moveModule<M extends OutlineModule>(modules: M[], activeId: string, overId: string): M[] {
  const from = modules.findIndex((m) => m.id === activeId);
  const to = modules.findIndex((m) => m.id === overId);
  if (from < 0 || to < 0 || from === to) return modules;
  const next = modules.slice();
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

/** The module holding lesson `lessonId`, or the module whose id is `lessonId` (a drop on an empty module). */
export function containerOf<M extends OutlineModule>(modules: M[], id: string): M | undefined {
  return modules.find((m) => m.id === id) ?? modules.find((m) => m.lessons.some((l) => l.id === id));
}

/**
 * Moves lesson `activeId` to where `overId` is: before that lesson (within or across modules), or at
 * the end of the module `overId` names.
 */
export function moveLesson<M extends OutlineModule>(modules: M[], activeId: string, overId: string): M[] {
  const source = containerOf(modules, activeId);
  const target = containerOf(modules, overId);
  if (!source || !target || activeId === overId) return modules;
  const lesson = source.lessons.find((l) => l.id === activeId)!;
  return modules.map((m) => {
    if (m.id !== source.id && m.id !== target.id) return m;
    let lessons = m.lessons.filter((l) => l.id !== activeId);
    if (m.id === target.id) {
      const overIndex = target.id === overId ? -1 : m.lessons.findIndex((l) => l.id === overId);
      if (overIndex < 0) lessons = [...lessons, lesson];
      else {
        // Within one module, dropping on a later lesson puts it after that lesson (arrayMove semantics).
        const fromIndex = m.lessons.findIndex((l) => l.id === activeId);
        const insertAt =
          fromIndex >= 0 && fromIndex < overIndex ? overIndex : lessons.findIndex((l) => l.id === overId);
        lessons = [...lessons.slice(0, insertAt), lesson, ...lessons.slice(insertAt)];
      }
    }
    return { ...m, lessons };
  });
}

/** The payload of reorder_course_content. */
export function reorderPayload(modules: OutlineModule[]): { id: string; lessons: string[] }[] {
  return modules.map((m) => ({ id: m.id, lessons: m.lessons.map((l) => l.id) }));
}

/** SPEC §4: a new module goes after the existing ones; a new lesson after its module's lessons. */
export function nextOrderIndex(items: { order_index: number }[]): number {
  return items.length;
}

/** Lesson length typed in minutes (may be fractional) → whole seconds. */
export function minutesToSeconds(minutes: number): number {
  return Number.isFinite(minutes) && minutes > 0 ? Math.round(minutes * 60) : 0;
}
