"""which browser plays a seat

Revision ID: e7b9d2f4a6c8
Revises: c3e5a7b9d1f2
Create Date: 2026-11-29 20:10:00

A browser's record across games ("Your record" on the start page): a seat keeps which browser
plays it (a hash of the random name in the browser's session), and so does a request for one.
Seats taken before are nobody's record.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e7b9d2f4a6c8'
down_revision = 'c3e5a7b9d1f2'
branch_labels = None
depends_on = None


# In place: a batch copy of a table on SQLite, with foreign keys on, would delete the rows that refer to it.
def upgrade():
    op.add_column('seat', sa.Column('browser_key', sa.String(length=64), nullable=True))
    op.create_index(op.f('ix_seat_browser_key'), 'seat', ['browser_key'], unique=False)
    op.add_column('seat_request', sa.Column('browser_key', sa.String(length=64), nullable=True))


def downgrade():
    op.drop_column('seat_request', 'browser_key')
    op.drop_index(op.f('ix_seat_browser_key'), table_name='seat')
    op.drop_column('seat', 'browser_key')
