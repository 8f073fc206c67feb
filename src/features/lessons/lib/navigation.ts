// Previous/next lesson across modules, in outline order (modules by order_index, then lessons).

export interface NavLesson {
  id: string;
  title: string;
}

export interface NavModule<L extends NavLesson = NavLesson> {
  id: string;
  title: string;
  lessons: readonly L[];
}

export interface LessonPosition<L extends NavLesson> {
  lesson: L;
  module: NavModule<L>;
  /** 1-based number of the module in the course. */
  moduleNumber: number;
  previous: L | null;
  next: L | null;
  /** 1-based position among all lessons, and their count. */
  index: number;
  total: number;
}

export function locateLesson<L extends NavLesson>(modules: readonly NavModule<L>[], lessonId: string): LessonPosition<L> | null {
  const flat: { lesson: L; module: NavModule<L>; moduleNumber: number }[] = [];
  modules.forEach((module, i) => module.lessons.forEach((lesson) => flat.push({ lesson, module, moduleNumber: i + 1 })));
  const at = flat.findIndex((x) => x.lesson.id === lessonId);
  if (at < 0) return null;
  const here = flat[at]!;
  return {
    lesson: here.lesson,
    module: here.module,
    moduleNumber: here.moduleNumber,
    previous: at > 0 ? flat[at - 1]!.lesson : null,
    next: at < flat.length - 1 ? flat[at + 1]!.lesson : null,
    index: at + 1,
    total: flat.length,
  };
}
