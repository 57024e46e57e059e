// A stacked bar chart (Chart.js on a canvas) with the same numbers as a table for screen readers
// and for anyone who wants exact counts.
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js'
import { useEffect, useRef } from 'react'

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip)

export interface Series {
  label: string
  color: string
  values: number[]
}

export function BarChart({ title, labels, series }: { title: string; labels: string[]; series: Series[] }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  useEffect(() => {
    if (!canvas.current) return
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels,
        datasets: series.map((s) => ({
          label: s.label,
          data: s.values,
          backgroundColor: s.color,
          borderWidth: 0,
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: { legend: { position: 'bottom' } },
        scales: {
          x: { stacked: true },
          y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } },
        },
      },
    })
    return () => chart.destroy()
  }, [labels, series])
  const total = series.reduce((n, s) => n + s.values.reduce((a, b) => a + b, 0), 0)
  return (
    <figure className="panel">
      <figcaption>
        <strong>{title}</strong>
      </figcaption>
      <div className="chart-box">
        <canvas
          ref={canvas}
          role="img"
          aria-label={`${title}: ${total} events; the table below has the numbers`}
        />
      </div>
      <details>
        <summary>Show as a table</summary>
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Period</th>
                {series.map((s) => (
                  <th scope="col" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((l, i) => (
                <tr key={l}>
                  <th scope="row">{l}</th>
                  {series.map((s) => (
                    <td key={s.label}>{s.values[i] ?? 0}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  )
}
