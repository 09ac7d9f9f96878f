/**
 * A table's header row: a `th scope="col"` a column and, for a table whose rows end
 * with buttons, a last column named "Actions" for screen readers only (seen, it
 * would be a heading over nothing but buttons).
 */
export function TableHead({ columns, actions = false }: { columns: readonly string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th scope="col" key={column}>
            {column}
          </th>
        ))}
        {actions && (
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
